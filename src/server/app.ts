/**
 * Builds the Fastify application (DESIGN.md §2: app.ts builds, main.ts listens): security
 * headers, compression, the rights guard, the one error handler, OpenAPI at `/api/docs`, the
 * API of SPEC.md §7 under `/api`, and the built client when `clientDir` is given.
 *
 * Order matters: the rights check (an onRoute hook) and @fastify/swagger must be installed
 * before any route, so that every API route is checked and documented.
 */
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { HelmetOptions } from 'helmet';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { sessionCache } from './auth/tokens.ts';
import { type LogSink, serverLogging } from './logging.ts';
import { ChangeFeed } from './db/changes.ts';
import type { Database } from './db/connect.ts';
import { canonicalValidatorCompiler } from './plugins/canonical-numbers.ts';
import { installClient } from './plugins/client.ts';
import { frameworkErrorHandler, installErrorHandlers } from './plugins/error-handler.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { clientErrorHandler, installInputGuard } from './plugins/input-guard.ts';
import { installQueryKeyCheck } from './plugins/query-keys.ts';
import { API_PREFIX, installRights } from './plugins/rights-guard.ts';
import { openApiOptions } from './openapi/document.ts';
import { helmetHeaders, installSecurityHeaders } from './plugins/security-headers.ts';
import { closeEditions } from './reports/editions.ts';
import { appJobs } from './jobs/kinds.ts';
import { JobQueue } from './jobs/queue.ts';
import { createMailer, type Mailer } from './mail/transport.ts';
import { installBruteForce } from './security/brute-force.ts';
import { type ReportSiteCache, reportSiteCache } from './reports/request.ts';
import { adminProfileRoutes } from './routes/admin-profile-routes.ts';
import { adminUserRoutes } from './routes/admin-user-routes.ts';
import { anomalyRoutes } from './routes/anomalies-routes.ts';
import { auditRoutes } from './routes/audit-routes.ts';
import { biRoutes } from './routes/bi-routes.ts';
import { reportRoutes } from './routes/reports-routes.ts';
import { adminGroupRoutes } from './routes/admin-group-routes.ts';
import { adminSiteRoutes } from './routes/admin-site-routes.ts';
import { distributionRoutes } from './routes/distributions-routes.ts';
import { exportRoutes } from './routes/exports-routes.ts';
import { fecRecurrenceRoutes } from './routes/fec-recurrence-routes.ts';
import { fecRoutes } from './routes/fec-routes.ts';
import { backupFolder, databaseRoutes, installSwitchGate } from './routes/database-routes.ts';
import { autoBackupDueSource, autoBackupJob } from './database/auto-backup.ts';
import { SwitchGate } from './database/gate.ts';
import { favouriteRoutes } from './routes/favourites-routes.ts';
import { forecastRoutes } from './routes/forecast-routes.ts';
import { homeRoutes } from './routes/home-routes.ts';
import { messageRoutes } from './routes/messages-routes.ts';
import { mailOutboxRoutes } from './routes/mail-outbox-routes.ts';
import { metaRoutes } from './routes/meta-routes.ts';
import { DirectItems } from './outbox/direct-items.ts';
import { outboxBatchRoutes } from './routes/outbox-batch-routes.ts';
import { referenceRoutes } from './routes/reference-routes.ts';
import { reinitRoutes } from './routes/reinit-routes.ts';
import { countingRoutes } from './routes/counting/counting-routes.ts';
import { collabEventRoutes } from './routes/collab-event-routes.ts';
import { sessionRoutes } from './routes/session-routes.ts';
import { subscriptionRoutes } from './routes/subscription-routes.ts';
import { alertRoutes } from './routes/alert-routes.ts';
import { startupRoutes } from './routes/startup-routes.ts';
import { purgeRoutes } from './routes/purge-routes.ts';
import { purgeJob } from './purge/purge-job.ts';
import { integrationRoutes } from './routes/integrations-routes.ts';
import { attentionRoutes } from './routes/attention-routes.ts';
import { integrationJobs, integrationsDueSource } from './integrations/run.ts';
import { alertCheckJob } from './alerts/check.ts';
import { alertsDueSource } from './alerts/due.ts';
import { ticketRoutes } from './routes/tickets-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's change feed (db/changes.ts): tests that write behind its back await `settled()`. */
    changes: ChangeFeed;
    /** The job queue (jobs/queue.ts): routes queue mails and jobs on it. */
    jobs: JobQueue;
    /** The app's one mailer (mail/transport.ts): SMTP, or the `.eml` outbox without SMTP_URL. */
    mailer: Mailer;
  }
}

/** What {@link buildApp} needs. */
export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Folder of the built client (`dist/`); when absent the server answers the API only. */
  clientDir?: string;
  /**
   * Log requests and errors (logging.ts: pino at `config.logLevel`, in `config.logFormat`, one
   * line per request); off in tests.
   */
  logger?: boolean;
  /** Where the log lines go (default standard output); tests collect them. */
  logTo?: LogSink;
  /**
   * False: a batch sends every item through the HTTP pipeline (`inject`), even those of routes
   * that declare `config.batchItem` (outbox/direct-items.ts). Default true; tests compare the two.
   */
  directBatchItems?: boolean;
  /**
   * False: the job queue is built but not started (it reads no database; nothing can be queued).
   * For a tool that only documents the routes (scripts/openapi-dump.ts). Default true.
   */
  startJobQueue?: boolean;
}

/**
 * Content-Security-Policy: everything from our own origin; inline styles allowed (react-aria
 * and the PDF viewer set style attributes); blob: and data: images for generated downloads and
 * icons. No `upgrade-insecure-requests`: the server is often reached over plain HTTP on a shop's
 * LAN, where upgrading would break every request.
 */
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

/** helmet's options for every answer's security headers (plugins/security-headers.ts). */
export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  // HSTS over plain HTTP is ignored by browsers and harmful behind a TLS proxy we do not know.
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' }, // as CSP frame-ancestors 'none', for older browsers
};

/**
 * Fastify's `trustProxy` for COMPTOIR_TRUST_PROXY: a list of proxy addresses as it is; a number
 * of proxies as a function trusting that many hops nearest the server (proxy-addr's hop index).
 */
function trustedProxies(setting: number | string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/**
 * The app's mailer and job queue (issue #28), on `app.mailer` and `app.jobs`: workers run at
 * once when `config.jobs` (so a mail queued by a request leaves), the every-minute clock only
 * once the server listens (a test app driven by inject() runs nothing due behind its back).
 * Closed with the app, before the database.
 */
async function installJobQueue(
  app: FastifyInstance,
  options: BuildAppOptions,
  reportSites: ReportSiteCache,
): Promise<void> {
  const { config, database } = options;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom ?? 'Comptoir <comptoir@localhost>',
    dataDir: config.dataDir,
  });
  const queue = new JobQueue({ pool: database.pool, work: config.jobs, log: app.log });
  const kinds = appJobs(database.pool, {
    mailer,
    editionsDays: config.editionsDays,
    subscriptions: {
      database,
      distribution: config.distribution,
      linkBase: `${config.publicUrl}${API_PREFIX}/recurrences`,
      reportSites,
    },
    fec: { database, dataDir: config.dataDir },
    log: app.log,
  });
  for (const job of kinds.jobs) queue.registerJob(job);
  for (const source of kinds.sources) queue.registerDueSource(source);
  // Alerts (issue #28): here, not in jobs/kinds.ts, as their mails' links need config.publicUrl (decision 0038).
  queue.registerJob(alertCheckJob({ publicUrl: config.publicUrl }));
  queue.registerDueSource(alertsDueSource);
  queue.registerJob(purgeJob({ dataDir: config.dataDir })); // issue #30, decision 0040
  // Automatic backup (issue #30, decision 0039): here too, as it writes into DATA_DIR/backups.
  queue.registerJob(autoBackupJob(backupFolder(config)));
  queue.registerDueSource(autoBackupDueSource);
  // Partner integrations (issue #29, decision 0044): here as alerts, as they need config.dataDir and the secret key.
  for (const job of integrationJobs({ dataDir: config.dataDir, secretKey: config.secretKey, log: app.log }))
    queue.registerJob(job);
  queue.registerDueSource(integrationsDueSource);
  if (options.startJobQueue !== false) await queue.start();
  app.decorate('mailer', mailer);
  app.decorate('jobs', queue);
  app.addHook('onResponse', async function wakeJobWorkers() {
    queue.wake();
  });
  app.addHook('onListen', async function startJobClock() {
    if (config.jobs && options.startJobQueue !== false) await queue.startClock();
  });
  app.addHook('onClose', async function stopJobQueue() {
    await queue.stop();
    mailer.close();
  });
}

/**
 * Compression per answer, for what the build did not compress already (vite.config.ts writes
 * .br and .gz of the client's files, which @fastify/static sends as they are): the API's JSON
 * above all. Brotli quality 4 and gzip level 3 cost a fraction of a report's own query for a
 * few per cent more bytes (decision record 0009 has the measurements).
 */
async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        // A 256 kB window, not 4 MB: the encoder of each answer being compressed holds ~2 MB
        // instead of ~9, for no larger CSV (issue #32 E.2, decision record 0006's figures).
        [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
      },
    },
    zlibOptions: { level: 3 },
  });
}

/**
 * Builds the application without listening.
 * @throws Error naming the route when one breaks the rights table (see plugins/rights-guard.ts).
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    ...(options.logger ? serverLogging(config, options.logTo) : { logger: false }),
    // Request bodies are report requests (a few site ids and dates): 1 MiB bounds them generously.
    bodyLimit: 1024 * 1024,
    // Behind reverse proxies named by COMPTOIR_TRUST_PROXY, the client address is X-Forwarded-For's
    // (per-address failure counters, audit log); otherwise the socket's.
    ...(config.trustProxy === undefined ? {} : { trustProxy: trustedProxies(config.trustProxy) }),
    // What Node's HTTP parser refuses is answered in SPEC.md §8's shape with the security
    // headers, and never logged raw.
    clientErrorHandler: clientErrorHandler(helmetHeaders(SECURITY_HEADER_OPTIONS)),
    // A request without Host is refused by the input guard, in SPEC.md §8's shape with the
    // security headers, rather than by Node with a bare 400 (issue #32 C.8).
    http: { requireHostHeader: false },
    // What the router refuses before any hook (a path that does not decode, a parameter over
    // 100 characters) too, with the security headers (issue #17 item 9).
    frameworkErrors: frameworkErrorHandler(helmetHeaders(SECURITY_HEADER_OPTIONS)),
  });
  // Numbers sent as text are canonical decimal or refused (issue #32 item C.7).
  app.setValidatorCompiler(canonicalValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app, API_PREFIX);
  // Caches of the per-call reads (session check, report sites), kept true by the change feed.
  const changes = new ChangeFeed(database.pool.options, (message, err) => app.log.warn({ err }, message));
  await changes.start();
  app.decorate('changes', changes);
  app.addHook('onClose', function closeChangeFeed() {
    return changes.close();
  });
  // Report history: the queued editions written on a graceful stop (0018); retention is a job.
  app.addHook('onClose', function writeQueuedEditions() {
    return closeEditions(database.pool);
  });
  const reportSites = reportSiteCache(changes);
  await installJobQueue(app, options, reportSites);
  const sessions = sessionCache(changes);
  // First, so that every answer carries them, the rights guard's 401/403/400 included.
  installSecurityHeaders(app, SECURITY_HEADER_OPTIONS);
  // While a restored database is switched to, no request is served (database/gate.ts, 0039).
  const databaseGate = new SwitchGate();
  installSwitchGate(app, databaseGate);
  // The first onRoute hook: it sees each route's own hooks, before the plugins below add theirs.
  const directItems = new DirectItems();
  app.addHook('onRoute', function collectDirectItems(route) {
    directItems.collect(route);
  });
  installInputGuard(app); // NUL, invalid UTF-8 and deep JSON: 400 before anything reads them
  installQueryKeyCheck(app, API_PREFIX); // a query parameter no schema names: 400 UnknownParameter
  installRights(app, {
    pool: database.pool,
    sessionMinutes: config.sessionMinutes,
    sessionMaxDays: config.sessionMaxDays,
    sessions,
  });

  await installCompression(app);
  // Flood control per address, Retry-After of locked counters, own-password checks counted (0020).
  await installBruteForce(app, { pool: database.pool, loginFailuresPerIp: config.loginFailuresPerIp });
  await app.register(fastifySwagger, openApiOptions());
  await app.register(fastifySwaggerUi, { routePrefix: `${API_PREFIX}/docs` });

  await app.register(
    async function apiRoutes(api) {
      await api.register(idempotencyPlugin, { pool: database.pool }); // first: wraps every later write route
      await api.register(metaRoutes, { config });
      await api.register(sessionRoutes, { database, config, sessions });
      await api.register(reinitRoutes, { database, config });
      await api.register(referenceRoutes, { database, config });
      await api.register(homeRoutes, { database });
      await api.register(countingRoutes, { database, config });
      await api.register(favouriteRoutes, { database });
      await api.register(messageRoutes, { database });
      await api.register(reportRoutes, { database, distribution: config.distribution, reportSites });
      await api.register(distributionRoutes, { database });
      await api.register(anomalyRoutes, { database });
      await api.register(exportRoutes, { database });
      await api.register(fecRoutes, { database });
      await api.register(fecRecurrenceRoutes, { database, dataDir: config.dataDir });
      await api.register(databaseRoutes, { database, config, gate: databaseGate });
      await api.register(ticketRoutes, { database });
      await api.register(adminUserRoutes, { database, sessions });
      await api.register(adminProfileRoutes, { database, sessions });
      await api.register(auditRoutes, { database });
      await api.register(biRoutes, { database });
      await api.register(adminSiteRoutes, { database });
      await api.register(adminGroupRoutes);
      await api.register(forecastRoutes, { database });
      await api.register(collabEventRoutes, { database });
      await api.register(mailOutboxRoutes, { config });
      await api.register(subscriptionRoutes, { database, config, reportSites });
      await api.register(alertRoutes, { database, config });
      await api.register(startupRoutes, { database, config });
      await api.register(purgeRoutes, { database, config });
      await api.register(integrationRoutes, { database, config });
      await api.register(attentionRoutes, { database });
      await api.register(outboxBatchRoutes, {
        database,
        directItems: options.directBatchItems === false ? null : directItems,
      });
    },
    { prefix: API_PREFIX },
  );

  await installClient(app, options.clientDir);
  return app;
}
