import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { AuditRepository } from './modules/audit/repository.js';
import { TokenRepository } from './modules/auth/repository.js';
import { AuthService } from './modules/auth/service.js';
import { UserRepository } from './modules/users/repository.js';
import { UserService } from './modules/users/service.js';

/** The composition root: repositories over the database, services over repositories. */
export function createServices(db: Database, config: Config) {
  const repos = {
    audit: new AuditRepository(db),
    tokens: new TokenRepository(db),
    users: new UserRepository(db),
  };
  return {
    db,
    config,
    repos,
    auth: new AuthService(config, repos.users, repos.tokens, repos.audit),
    users: new UserService(repos.users, repos.tokens, repos.audit),
  };
}

export type Services = ReturnType<typeof createServices>;
