/**
 * Connection settings of the running database as PostgreSQL's tools and an administration
 * connection need them, read from the app's pool (embedded or DATABASE_URL alike).
 * The password only ever travels in a child's environment (PGPASSWORD), never on a command line
 * or in a log.
 */
import pg from 'pg';

/** Where the database is: `host` (or socket folder), `port`, `user`, `password`, `database`. */
export interface ConnectionSettings {
  host: string;
  port: number;
  user: string;
  password: string | undefined;
  database: string;
}

/** The settings `pool` connects with (its connection string resolved as pg does). */
export function settingsOf(pool: pg.Pool): ConnectionSettings {
  const client = new pg.Client(pool.options); // never connected: only resolves the settings
  const password = (pool.options as { password?: unknown }).password ?? client.password;
  return {
    host: client.host,
    port: client.port,
    user: client.user ?? '',
    password: typeof password === 'string' ? password : undefined,
    database: client.database ?? '',
  };
}

/** The environment of a `pg_dump` / `pg_restore` child connecting to `database`. */
export function toolEnv(settings: ConnectionSettings, database: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PGHOST: settings.host,
    PGPORT: String(settings.port),
    PGUSER: settings.user,
    PGDATABASE: database,
    PGCONNECT_TIMEOUT: '10',
  };
  if (settings.password !== undefined) env.PGPASSWORD = settings.password;
  return env;
}

/** A client on `database` of the same server (default `postgres`, for CREATE/ALTER/DROP DATABASE). */
export function clientOn(settings: ConnectionSettings, database = 'postgres'): pg.Client {
  return new pg.Client({
    host: settings.host,
    port: settings.port,
    user: settings.user,
    ...(settings.password === undefined ? {} : { password: settings.password }),
    database,
  });
}

/** `name` quoted as a PostgreSQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
