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

/** A Markdown table with padded columns (the way the formatter writes it). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => [...(r[i] ?? '')].length)));
  const line = (r: readonly string[]) =>
    `| ${r.map((c, i) => c + ' '.repeat((widths[i] ?? 0) - [...c].length)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
