import fs from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { APP_TITLE, APP_VERSION, MSG } from '@sigaf/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { failure } from './http/envelope.js';
import { frameworkErrors, registerErrorHandler } from './http/errors.js';
import { authRoutes } from './modules/auth/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { catalogueRoutes } from './modules/catalogs/routes.js';
import { categoryRoutes } from './modules/categories/routes.js';
import { courseRoutes } from './modules/courses/routes.js';
import { studentRoutes } from './modules/students/routes.js';
import { ticketRoutes } from './modules/tickets/routes.js';
import { moodleSyncRoutes } from './modules/moodle-sync/routes.js';
import { sectionMapRoutes } from './modules/moodle-sync/section-map.routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { reportRoutes } from './modules/reports/routes.js';
import { mailRoutes } from './modules/mail/routes.js';
import { followUpRoutes } from './modules/follow-up/routes.js';
import { reminderRoutes } from './modules/reminders/routes.js';
import { outcomeRoutes } from './modules/outcomes/routes.js';
import { agendaRoutes } from './modules/agenda/routes.js';
import { setupRoutes } from './modules/setup/routes.js';
import multipart from '@fastify/multipart';
import { createServices, type Services } from './services.js';
import { localBuilder, ThreadBuilder } from './modules/answers/builders.js';
import { BUILDS } from './answer-builds.js';
import { logDestination } from './lib/log-lines.js';

z.config(z.locales.es());

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    services: Services;
  }
}

/** Deepest nesting a JSON body may have (the API's deepest request is a few levels). */
export const MAX_JSON_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `max` levels; iterative, so any depth is safe to ask. */
export function jsonDepthOver(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The original client sends a JSON body (`true`) with GET and DELETE, and sometimes an empty
 * body with a JSON content type: both are accepted. Broken JSON is a 400 in the envelope.
 */
function registerJsonParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      const value: unknown = JSON.parse(text);
      // Deeper than any request of the API: refused before a route (or JSON.stringify) recurses into it.
      if (jsonDepthOver(value, MAX_JSON_DEPTH))
        return done(
          Object.assign(new Error(MSG.jsonTooDeep), {
            statusCode: 400,
            code: 'SIGAF_JSON_TOO_DEEP',
          }),
          undefined,
        );
      done(null, value);
    } catch {
      const err = Object.assign(new Error(MSG.badJson), {
        statusCode: 400,
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      });
      done(err, undefined);
    }
  });
}

export async function buildApp(config: Config, db: Database): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, ...logDestination(config.LOG_FORMAT) },
    // A hop count trusts that many proxies nearest the server (proxy-addr's hop rule).
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(config.TRUST_PROXY)
        : config.TRUST_PROXY,
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestTimeout: 120_000,
    connectionTimeout: 130_000,
    keepAliveTimeout: 72_000,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2000 },
    genReqId: () => crypto.randomUUID(),
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonParser(app);
  registerErrorHandler(app);

  const services = createServices(db, config, app.log);
  // Whole-course answers are built on a thread of their own when the database is a PostgreSQL
  // server that thread can reach; the embedded database lives on this thread, and so do its builds.
  services.answers.builder = config.DATABASE_URL
    ? new ThreadBuilder(config)
    : localBuilder(services, BUILDS);
  app.decorate('config', config);
  app.decorate('services', services);
  // A write answered: the courses it marked are recomputed now rather than by their next reader.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400)
      services.figuresKeeper.poke();
  });
  app.addHook('onClose', async () => {
    await services.figuresKeeper.settle();
    await services.answers.builder?.close();
    await services.mail.close();
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, {
    origin: (origin, cb) => cb(null, !origin ? false : config.CORS_ORIGINS.includes(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-requested-with', 'accept'],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `SIGAF API — ${APP_TITLE}`, version: APP_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // The API description: to signed-in staff by default; the interactive page only when public (API_DOCS).
  if (config.API_DOCS === 'public') await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5, fields: 50 } });
  registerAuth(app, services.repos.tokens);
  await app.register(healthRoutes, { services });
  await app.register(authRoutes, { prefix: '/api/auth', services });
  if (config.API_DOCS === 'staff') {
    app.get(
      '/api/docs/json',
      { config: { access: 'authenticated' }, schema: { hide: true } },
      async () => app.swagger(),
    );
  }
  for (const routes of [
    userRoutes,
    catalogueRoutes,
    categoryRoutes,
    courseRoutes,
    studentRoutes,
    ticketRoutes,
    mailRoutes,
    dashboardRoutes,
    reportRoutes,
    moodleSyncRoutes,
    sectionMapRoutes,
    followUpRoutes,
    reminderRoutes,
    agendaRoutes,
    outcomeRoutes,
    setupRoutes,
  ]) {
    await app.register(routes, { prefix: '/api/v2', services });
  }

  registerWebApp(app, config);
  return app;
}

/** Serves the built web app with a history-mode fallback, so one process is the whole product. */
function registerWebApp(app: FastifyInstance, config: Config) {
  const index = path.join(config.WEB_DIST, 'index.html');
  const hasWeb = config.SERVE_WEB && fs.existsSync(index);
  if (hasWeb) {
    app.register(fastifyStatic, { root: config.WEB_DIST, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const isApi = url.startsWith('/api') || url === '/health';
    // Files of the build are routes of their own (wildcard: false); any other page is the app's.
    if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(failure(404, MSG.badUrl));
  });
}
