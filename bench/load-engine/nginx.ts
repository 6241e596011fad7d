/** nginx from Debian as a fixed-cost peer target: started on 127.0.0.1 with its own config in a temp dir. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function which(binary: string): string | undefined {
  try {
    return execFileSync('which', [binary], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Installs Debian packages when their binaries are missing (the bench needs root for that). */
export function ensureInstalled(binaries: Record<string, string>): void {
  const missing = Object.entries(binaries).filter(([binary]) => !which(binary) && !which(`/usr/sbin/${binary}`));
  if (missing.length === 0) return;
  const packages = missing.map(([, pkg]) => pkg);
  process.stdout.write(`installing ${packages.join(', ')} (apt-get)…\n`);
  // Another process's apt/dpkg lock (an install, unattended-upgrades) is waited for, at most 5 minutes.
  execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', ...packages], { stdio: 'inherit' });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/** `workers`: nginx worker processes (default 1); `cpus`: a taskset CPU list to pin nginx to (e.g. "0-1"). */
export async function startNginx(options: { workers?: number; cpus?: string } = {}): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes ${options.workers ?? 1};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    location / {
      default_type application/json;
      return 200 '{"id":"msg_0123456789abcdef","status":"sent"}';
    }
  }
}
`,
  );
  const binary = which('nginx') ?? '/usr/sbin/nginx';
  const command = options.cpus && which('taskset') ? ['taskset', '-c', options.cpus, binary] : [binary];
  const child: ChildProcess = spawn(command[0] as string, [...command.slice(1), '-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGQUIT');
      }),
  };
}
