// A process's own resource use, read from /proc (Linux only).
//
// CPU: utime + stime (fields 14 and 15 of /proc/<pid>/stat, in clock ticks),
// summed over the process and its live descendants (so a broker that forks
// helpers is counted whole). Memory: VmRSS and VmHWM from /proc/<pid>/status,
// summed the same way.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let clkTck;
/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux nearly always). */
export function clockTicks() {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2000 }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** Fields of /proc/<pid>/stat after the command name, or null if gone. */
function statFields(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm (field 2) is in parentheses and may hold spaces or ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field n is rest[n - 3].
  return rest;
}

/** pid and all its live descendants. */
export function processTree(pid) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (!f) continue;
    const ppid = Number(f[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

/** CPU seconds (user, sys, total) used so far by pid and its descendants. */
export function cpuSeconds(pid) {
  const tck = clockTicks();
  let user = 0;
  let sys = 0;
  for (const p of processTree(pid)) {
    const f = statFields(p);
    if (!f) continue;
    user += Number(f[14 - 3]);
    sys += Number(f[15 - 3]);
  }
  return { user: user / tck, sys: sys / tck, total: (user + sys) / tck };
}

/** Resident memory in bytes: { rss, hwm } summed over pid and its descendants. */
export function memory(pid) {
  let rss = 0;
  let hwm = 0;
  for (const p of processTree(pid)) {
    let text;
    try {
      text = fs.readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      continue;
    }
    rss += Number(/^VmRSS:\s+(\d+) kB/m.exec(text)?.[1] ?? 0) * 1024;
    hwm += Number(/^VmHWM:\s+(\d+) kB/m.exec(text)?.[1] ?? 0) * 1024;
  }
  return { rss, hwm };
}

/**
 * On-CPU time in seconds with nanosecond resolution: the first field of
 * /proc/<pid>/task/<tid>/schedstat summed over the live threads of pid and
 * its descendants (threads that already exited are not counted, unlike
 * cpuSeconds). null when the kernel has no schedstat.
 */
export function cpuRuntime(pid) {
  let ns = 0;
  let any = false;
  for (const p of processTree(pid)) {
    let tids;
    try {
      tids = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        ns += Number(fs.readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        any = true;
      } catch {
        /* thread gone */
      }
    }
  }
  return any ? ns / 1e9 : null;
}
