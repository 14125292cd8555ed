import type { ListQuery, UserCreateInput, UserUpdateInput } from '@sigaf/contract';
import {
  AUTH_MSG,
  FIRST_LOGIN_DONE,
  FIRST_LOGIN_PENDING,
  isAdminLike,
  MSG,
  normalizeRut,
} from '@sigaf/contract';
import type { Updateable } from 'kysely';
import type { UserTable } from '../../db/schema.js';
import { removeFirstAccessFile } from '../../first-access.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError, conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { generatePassword, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { passwordProblem } from '../../lib/password-policy.js';
import type { AuditRepository } from '../audit/repository.js';
import type { UserRepository } from './repository.js';

export const USERS_MSG = {
  cannotDeleteSelf: 'No puede eliminar su propio usuario.',
  passwordReset: 'Se ha generado una contraseña temporal.',
} as const;

/**
 * What managing users needs of sign-in (modules/auth: TokenRepository, AuthService), handed in by
 * services.ts: sign-in reads and updates users, so this module imports nothing of it.
 */
export interface Sessions {
  /** Ends every session of a user, but the one given. */
  revokeAllFor(userId: number, exceptTokenId?: number): Promise<unknown>;
}
export interface PasswordCheck {
  /** Checks a user's current password within the sign-in limits (past a limit: 429). */
  checkCurrentPassword(
    user: { id: number; email: string; password: string },
    candidate: string,
    ip: string,
  ): Promise<boolean>;
}

export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: Sessions,
    private readonly audit: AuditRepository,
    private readonly auth: PasswordCheck,
    /** Where the first administrator's one-time password file is kept (DATA_DIR). */
    private readonly dataDir?: string,
  ) {}

  /**
   * The operator picker (`view=operators`) hides Tutors (docs/development/domain.md#roles). The maintenance list shows
   * administrators every account, Developers included (no full-rights account hidden from them);
   * anyone else does not see Developers.
   */
  list(q: ListQuery & { view?: string }, actor: AuthUser) {
    return this.users.list({
      ...q,
      excludeRoles:
        q.view === 'operators' ? ['tutor'] : isAdminLike(actor.role) ? [] : ['developer'],
    });
  }

  async get(id: number) {
    const user = await this.users.findById(id);
    if (!user) throw notFound();
    return user;
  }

  async remove(id: number, actor: AuthUser, ip: string) {
    if (id === actor.id) throw new AppError(409, USERS_MSG.cannotDeleteSelf);
    const user = await this.get(id);
    await this.users.softDelete(id);
    await this.tokens.revokeAllFor(id);
    await this.audit.record({
      userId: actor.id,
      action: 'delete',
      entity: 'users',
      entityId: id,
      changes: { email: user.email },
      ip,
    });
  }

  /** An administrator gives a user a new temporary password; they must change it at next sign-in. */
  async resetPassword(id: number, actor: AuthUser, ip: string) {
    await this.get(id);
    const temporaryPassword = generatePassword();
    await this.users.update(id, {
      password: await hashPassword(temporaryPassword),
      is_first_login: FIRST_LOGIN_PENDING,
    });
    await this.tokens.revokeAllFor(id, id === actor.id ? actor.tokenId : undefined);
    await this.audit.record({
      userId: actor.id,
      action: 'reset_password',
      entity: 'users',
      entityId: id,
      ip,
    });
    return { user: await this.get(id), temporaryPassword };
  }

  /** Creates a staff user with a temporary password; they must change it on first login. */
  async signup(input: UserCreateInput, actor: AuthUser, ip: string) {
    if (await this.users.emailTaken(input.email)) throw new AppError(406, MSG.emailExists);
    const roleId = input.role_id;
    if (!roleId) throw invalid({ role_id: ['Es obligatorio.'] });
    if (!(await this.users.roleExists(roleId))) throw invalid({ role_id: ['El rol no existe.'] });
    const chosen = input.password ? passwordProblem(input.password, input) : null;
    if (chosen) throw invalid({ password: [chosen] });
    const temporaryPassword = input.password ?? generatePassword();
    const id = await this.users.insert({
      rut: input.rut ? normalizeRut(input.rut) : null,
      name: input.name,
      phone: input.phone ?? null,
      mobile: input.mobile ?? null,
      email: input.email.toLowerCase(),
      password: await hashPassword(temporaryPassword),
      is_first_login: FIRST_LOGIN_PENDING,
      role_id: roleId,
    });
    await this.audit.record({
      userId: actor.id,
      action: 'create',
      entity: 'users',
      entityId: id,
      changes: { email: input.email, role_id: roleId },
      ip,
    });
    const user = await this.users.findById(id);
    return { user: user!, temporaryPassword };
  }

  /**
   * Updates a user. Anyone may update their own name, phones and password (the first-login
   * change sets the flag to 1); only administrators may touch another user, a role or an e-mail.
   */
  async update(id: number, input: UserUpdateInput, actor: AuthUser, ip: string) {
    const self = actor.id === id;
    const admin = isAdminLike(actor.role);
    if (!self && !admin) throw forbidden(MSG.ownRecordOnly);
    const current = await this.users.findById(id);
    if (!current) throw notFound();

    const changes: Updateable<UserTable> = {};
    if (input.name) changes.name = input.name;
    if (input.phone !== undefined) changes.phone = input.phone;
    if (input.mobile !== undefined) changes.mobile = input.mobile;
    if (input.rut && normalizeRut(input.rut) !== current.rut) {
      if (!admin) throw forbidden();
      changes.rut = normalizeRut(input.rut);
    }
    if (input.email && input.email.toLowerCase() !== current.email.toLowerCase()) {
      if (!admin) throw forbidden();
      if (await this.users.emailTaken(input.email, id)) throw new AppError(406, MSG.emailExists);
      changes.email = input.email.toLowerCase();
    }
    if (input.role_id && input.role_id !== current.role_id) {
      if (!admin) throw forbidden(MSG.cannotChangeRole);
      if (self) throw forbidden(MSG.cannotChangeRole);
      if (!(await this.users.roleExists(input.role_id)))
        throw invalid({ role_id: ['El rol no existe.'] });
      changes.role_id = input.role_id;
    }
    if (input.password) {
      const problem = passwordProblem(input.password, {
        email: changes.email ?? current.email,
        name: changes.name ?? current.name,
      });
      if (problem) throw invalid({ password: [problem] });
      if (self) {
        // The first-login change comes straight after signing in with the temporary password;
        // any other own change proves the current one (a stolen session cannot take the account),
        // checked under the sign-in limits and counted with the sign-in failures.
        if (current.is_first_login !== FIRST_LOGIN_PENDING) {
          if (!input.current_password)
            throw invalid({ current_password: [AUTH_MSG.currentPasswordRequired] });
          if (!(await this.auth.checkCurrentPassword(current, input.current_password, ip)))
            throw invalid({ current_password: [AUTH_MSG.currentPasswordWrong] });
        }
        if (await verifyPassword(current.password, input.password))
          throw invalid({ password: [AUTH_MSG.passwordSameAsCurrent] });
      }
      changes.password = await hashPassword(input.password);
      // Own change completes the first login; an administrator's reset forces a change at next login.
      changes.is_first_login = self ? FIRST_LOGIN_DONE : FIRST_LOGIN_PENDING;
    }
    // An own change is written only over the password it was checked against: of changes sent at
    // once, one is made and the others are a 409 (each would otherwise answer that its password holds).
    if (changes.password && self) {
      if (!(await this.users.updateIfPassword(id, changes, current.password)))
        throw conflict(MSG.conflict);
    } else if (Object.keys(changes).length) await this.users.update(id, changes);
    if (changes.password) await this.tokens.revokeAllFor(id, self ? actor.tokenId : undefined);
    // The first administrator's one-time password is no longer needed once they chose their own.
    if (changes.password && self && current.is_first_login === FIRST_LOGIN_PENDING && this.dataDir)
      await removeFirstAccessFile(this.dataDir, current.email, current.password);
    const logged = Object.fromEntries(
      Object.keys(changes).map((k) => [
        k,
        k === 'password' ? '***' : (changes as Record<string, unknown>)[k],
      ]),
    );
    await this.audit.record({
      userId: actor.id,
      action: 'update',
      entity: 'users',
      entityId: id,
      changes: logged,
      ip,
    });
    return (await this.users.findById(id))!;
  }
}
