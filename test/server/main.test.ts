// @vitest-environment node
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TestClient, refusedUpgrade } from './helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('reference server: the command', () => {
  it('builds, starts on 127.0.0.1 with PORT=0, prints its URL, serves a session and stops on SIGTERM', async () => {
    const out = `server/dist/test-${process.pid}`;
    const child = spawn(process.execPath, ['server/run.mjs', `--out=${out}`], {
      cwd: root,
      env: { ...process.env, PORT: '0', TOOLGATE_SPEED: 'Infinity', TOOLGATE_ALLOWED_ORIGINS: 'http://page.test:3000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed; stdout: ${stdout}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += String(chunk);
          const match = /toolgate reference server listening on (ws:\/\/127\.0\.0\.1:(\d+))/.exec(stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stdout}`)));
      });
      expect(Number(url.split(':').at(-1))).toBeGreaterThan(0);
      const { client, welcome } = await TestClient.connect(url);
      expect(welcome.type).toBe('session.welcome');
      // TOOLGATE_ALLOWED_ORIGINS: that page may connect, another site's may not.
      const page = await TestClient.connectFrom(url, 'http://page.test:3000', {});
      expect(page.welcome.type).toBe('session.welcome');
      page.client.socket.terminate();
      expect((await refusedUpgrade(url, 'http://evil.test')).status).toBe(403);
      const { ended } = await client.runTurn('search');
      expect(ended.status).toBe('completed');
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(client.events().at(-1)).toMatchObject({ type: 'closed', reason: 'shutdown' });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(`${root}/${out}`, { recursive: true, force: true });
    }
  }, 30_000);
});
