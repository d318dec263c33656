import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { BackendLog } from './backend';

const run = promisify(execFile);

/**
 * Host firewall rules that keep challenge containers off the platform's host and private networks.
 *
 * Docker's inter-container switch (off on our network) only stops containers reaching each other.
 * Connections from a container to the host itself (the platform's port, a database or cache
 * listening on all addresses, the engine's API on tcp) go through INPUT, and to other private hosts
 * through FORWARD; Docker filters neither. So, for the challenge bridge:
 *
 * - INPUT: only replies to connections the host opened (the proxy dialing a container); anything a
 *   container opens towards the host is dropped.
 * - FORWARD (Docker's DOCKER-USER hook): new connections to the blocked ranges are dropped, except
 *   DNS, which Docker's embedded resolver forwards from inside the container to the host's name
 *   servers (often on a private address).
 *
 * Each set lives in a chain of our own, flushed and refilled at every start, so a changed range list
 * takes effect and nothing accumulates; the jumps into them are added once. Needs iptables and root
 * on the engine's host: elsewhere the rules are printed for the operator instead.
 */
export async function installFirewall(bridge: string, blockedCidrs: string[], log: BackendLog): Promise<boolean> {
  const suffix = createHash('sha256').update(bridge).digest('hex').slice(0, 8);
  const input = `GZCTF-IN-${suffix}`;
  const forward = `GZCTF-FWD-${suffix}`;
  const plan = firewallCommands(bridge, blockedCidrs, input, forward);
  try {
    await iptables(['-L', 'INPUT', '-n']);
  } catch (error) {
    log.warn(
      `challenge containers can reach this host: the firewall rules could not be installed (${reason(error)}). ` +
        `Run as root where iptables is available, or add them yourself:\n${plan.map((args) => `iptables ${args.join(' ')}`).join('\n')}`,
    );
    return false;
  }
  const dockerUser = await iptables(['-L', 'DOCKER-USER', '-n']).then(
    () => true,
    () => false,
  );
  for (const chain of [input, ...(dockerUser ? [forward] : [])]) {
    await iptables(['-N', chain]).catch(() => undefined); // exists already
    await iptables(['-F', chain]);
  }
  await iptables(['-A', input, '-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'RETURN']);
  await iptables(['-A', input, '-j', 'DROP']);
  await ensureJump(['INPUT', '-i', bridge, '-j', input]);
  if (dockerUser) {
    await iptables(['-A', forward, '-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'RETURN']);
    for (const protocol of ['udp', 'tcp']) {
      await iptables(['-A', forward, '-p', protocol, '--dport', '53', '-j', 'RETURN']);
    }
    for (const cidr of blockedCidrs) await iptables(['-A', forward, '-d', cidr, '-j', 'DROP']);
    await ensureJump(['DOCKER-USER', '-i', bridge, '-j', forward]);
  } else {
    log.warn('no DOCKER-USER chain (Docker without iptables?): challenge containers may reach private networks');
  }
  log.info(`firewall for challenge bridge ${bridge} installed`);
  return true;
}

/** The rules as commands, for the operator who installs them by hand. */
function firewallCommands(bridge: string, blockedCidrs: string[], input: string, forward: string): string[][] {
  return [
    ['-N', input],
    ['-A', input, '-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'RETURN'],
    ['-A', input, '-j', 'DROP'],
    ['-I', 'INPUT', '-i', bridge, '-j', input],
    ['-N', forward],
    ['-A', forward, '-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'RETURN'],
    ['-A', forward, '-p', 'udp', '--dport', '53', '-j', 'RETURN'],
    ['-A', forward, '-p', 'tcp', '--dport', '53', '-j', 'RETURN'],
    ...blockedCidrs.map((cidr) => ['-A', forward, '-d', cidr, '-j', 'DROP']),
    ['-I', 'DOCKER-USER', '-i', bridge, '-j', forward],
  ];
}

async function ensureJump(rule: string[]): Promise<void> {
  const [chain, ...spec] = rule;
  try {
    await iptables(['-C', chain!, ...spec]);
  } catch {
    await iptables(['-I', chain!, ...spec]);
  }
}

async function iptables(args: string[]): Promise<void> {
  // -w waits for the xtables lock, which Docker and other platform instances take too.
  await run('iptables', ['-w', ...args], { timeout: 10_000 });
}

function reason(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr?.trim();
  return stderr || (error instanceof Error ? error.message : String(error));
}
