import { createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseFault } from './unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('databaseFault', () => {
  it.each([
    [
      'pg_terminate_backend',
      withCode('terminating connection due to administrator command', '57P01'),
      'connection-lost',
    ],
    [
      'a server crash',
      withCode('terminating connection because of crash of another server process', '57P02'),
      'connection-lost',
    ],
    ['a server starting up', withCode('the database system is starting up', '57P03'), 'connection-lost'],
    ['class 08', withCode('connection failure', '08006'), 'connection-lost'],
    ['a reset socket', withCode('read ECONNRESET', 'ECONNRESET'), 'connection-lost'],
    ['a refused socket', withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'), 'connection-lost'],
    ['a closed connection', new Error('Connection terminated unexpectedly'), 'connection-lost'],
    ['a frozen network', new Error('Query read timeout'), 'connection-lost'],
    [
      'a dead client',
      new Error('Client has encountered a connection error and is not queryable'),
      'connection-lost',
    ],
    ['the pool waiting', new Error('timeout exceeded when trying to connect'), 'timeout'],
    ['a slow connect', new Error('Connection terminated due to connection timeout'), 'timeout'],
    ['statement_timeout', withCode('canceling statement due to statement timeout', '57014'), 'timeout'],
    ['too many clients', withCode('sorry, too many clients already', '53300'), 'busy'],
    ['PostgreSQL disk full', withCode('could not extend file', '53100'), 'disk-full'],
    ['SQLite disk full', withCode('database or disk is full', 'SQLITE_FULL'), 'disk-full'],
    ['SQLite busy', withCode('database is locked', 'SQLITE_BUSY'), 'busy'],
    ['an SQLite I/O error', withCode('disk I/O error', 'SQLITE_IOERR'), 'io'],
    ['an extended SQLite code', withCode('disk I/O error', 'SQLITE_IOERR_WRITE'), 'io'],
    ['a wrapped error', new Error('outer', { cause: withCode('x', 'SQLITE_FULL') }), 'disk-full'],
    ['happy eyeballs', new AggregateError([withCode('x', 'ECONNREFUSED')], ''), 'connection-lost'],
  ])('%s is transient', (_what, err, fault) => {
    expect(databaseFault(err)).toBe(fault);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['NUL in text', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['an SQLite constraint', withCode('UNIQUE constraint failed: volumes.id', 'SQLITE_CONSTRAINT')],
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a message that only looks like one', withCode('Connection terminated', 'SOMETHING_ELSE')],
    ['not an error', 'Connection terminated'],
  ])('%s is not', (_what, err) => {
    expect(databaseFault(err)).toBeNull();
  });

  it('recognises what node-postgres really raises when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as { port: number };
        srv.close(() => resolve(port));
      });
    });
    const pool = new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${port}/none` });
    const err = await pool.query('select 1').catch((e: unknown) => e);
    await pool.end();
    expect(databaseFault(err)).toBe('connection-lost');
  });
});
