// Runs bench/memory-probe.ts in a child process per implementation.
import { spawn } from 'node:child_process';
import type { ProbeResult, ProbeSpec } from './memory-probe';

export async function probeMemory(spec: ProbeSpec): Promise<ProbeResult> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/memory-probe.ts', JSON.stringify(spec)], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) {
    throw new Error(`memory probe for ${spec.impl}/${spec.provider} exited ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return JSON.parse(line) as ProbeResult;
}
