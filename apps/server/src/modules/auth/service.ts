import { randomBytes } from 'node:crypto';
import type { LoginInput, LoginResult } from '@sigaf/contract';
import { AUTH_MSG, MSG } from '@sigaf/contract';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';
import { hashPassword, isLegacyHash, verifyPassword } from '../../lib/passwords.js';
import type { AuditRepository } from '../audit/repository.js';
import type { UserRepository } from '../users/repository.js';
import type { TokenRepository } from './repository.js';

// A real argon2id hash of a random string, verified when the account does not exist so that
// timing does not tell whether an e-mail is registered.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$dff7gmznCZx9tsT1Sh8ZyQ$czT66YUqCvFof5DvHJEmQSDb/fEKd8rqqfu+HBN9A28';

/**
 * An address that signed in to an account within these days is known for it: that account's
 * failures there are held by LOGIN_MAX_FAILURES_KNOWN_ADDRESS instead of the account-wide limit
 * (TokenRepository.reserveCheck).
 */
export const KNOWN_IP_DAYS = 30;

export class AuthService {
  constructor(
    private readonly config: Config,
    private readonly users: UserRepository,
    private readonly tokens: TokenRepository,
    private readonly audit: AuditRepository,
  ) {}

  async login(input: LoginInput, ip: string, userAgent: string | null): Promise<LoginResult> {
    const email = input.email.toLowerCase();
    // The check is reserved (counted and recorded at once) before the password is verified.
    const reserved = await this.tokens.reserveCheck(email, ip, this.limits());
    if ('refused' in reserved) {
      await this.audit.record({
        userId: null,
        action: 'login_blocked',
        entity: 'auth',
        entityId: email,
        changes: { limit: reserved.refused },
        ip,
      });
      throw new AppError(429, MSG.tooManyRequests);
    }
    const user = await this.users.findByEmail(email);
    const valid = await verifyPassword(user?.password ?? DUMMY_HASH, input.password);
    if (!user || !valid) {
      await this.audit.record({
        userId: user?.id ?? null,
        action: 'login_failed',
        entity: 'auth',
        entityId: email,
        ip,
      });
      throw new AppError(401, MSG.unauthorized);
    }
    await this.tokens.markSucceeded(reserved.id);
    // An account imported from SIGAF 1.x signs in with its bcrypt hash once; it becomes argon2id.
    if (isLegacyHash(user.password))
      await this.users.update(user.id, { password: await hashPassword(input.password) });
    const remember =
      input.remember_me === true ||
      input.remember_me === 1 ||
      input.remember_me === '1' ||
      input.remember_me === 'true';
    const hours = remember ? this.config.REMEMBER_ME_TTL_HOURS : this.config.TOKEN_TTL_HOURS;
    const expiresAt = new Date(Date.now() + hours * 3_600_000);
    const token = randomBytes(32).toString('base64url');
    await this.tokens.create(user.id, token, expiresAt, ip, userAgent);
    await this.audit.record({
      userId: user.id,
      action: 'login',
      entity: 'auth',
      entityId: user.id,
      ip,
    });
    return { access_token: token, token_type: 'Bearer', expires_at: expiresAt.toISOString() };
  }

  /**
   * The current password a signed-in user gives to change their own: checked under the same
   * reservation, limits and failure count as sign-ins (both paths together are bounded), so a
   * stolen session cannot guess the password beside the sign-in limits. Past a limit: 429.
   */
  async checkCurrentPassword(
    user: { id: number; email: string; password: string },
    candidate: string,
    ip: string,
  ): Promise<boolean> {
    const email = user.email.toLowerCase();
    const reserved = await this.tokens.reserveCheck(email, ip, this.limits());
    if ('refused' in reserved) {
      await this.audit.record({
        userId: user.id,
        action: 'password_check_blocked',
        entity: 'auth',
        entityId: email,
        changes: { limit: reserved.refused },
        ip,
      });
      throw new AppError(429, AUTH_MSG.currentPasswordTooManyAttempts);
    }
    if (!(await verifyPassword(user.password, candidate))) {
      await this.audit.record({
        userId: user.id,
        action: 'password_check_failed',
        entity: 'auth',
        entityId: email,
        ip,
      });
      return false;
    }
    await this.tokens.markSucceeded(reserved.id);
    return true;
  }

  private limits() {
    return {
      windowMinutes: this.config.LOGIN_WINDOW_MINUTES,
      perAccount: this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: this.config.LOGIN_MAX_FAILURES_PER_IP,
      perKnownAddress: this.config.LOGIN_MAX_FAILURES_KNOWN_ADDRESS,
      knownDays: KNOWN_IP_DAYS,
    };
  }

  async logout(tokenId: number, userId: number, ip: string) {
    await this.tokens.revoke(tokenId);
    await this.audit.record({ userId, action: 'logout', entity: 'auth', entityId: userId, ip });
  }
}
