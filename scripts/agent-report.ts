import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces the block between `<!-- name:start -->` and `<!-- name:end -->` in docs/benchmarks-agent.md. */
export function recordSection(file: string, name: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Agent benchmarks\n';
  const block = `${start}\n${body.trim()}\n${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + block + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
}
