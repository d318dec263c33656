import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import mailPlugin from '../../../server/src/plugins/app/mail';
import { testEnv } from '../helpers/app';

// Mail over SMTP (verification, recovery, address change) is in mail.test.ts.
describe('mail without SMTP', () => {
  test('is written to the log (info) with its link instead of being sent', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    app.decorate('env', testEnv());
    await app.register(mailPlugin);
    await app.ready();
    await app.mailer.send({
      to: 'a@example.net',
      subject: 'Hi',
      text: 'open https://ctf.example/account/verify?token=t',
    });
    await app.close();
    const entry = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => 'mail' in line);
    assert.ok(entry);
    assert.equal(entry.level, 30);
    assert.deepEqual(entry.mail, {
      to: 'a@example.net',
      subject: 'Hi',
      text: 'open https://ctf.example/account/verify?token=t',
    });
  });
});
