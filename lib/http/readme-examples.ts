/**
 * The fenced ```sh blocks of the README's "Use the API" section, with the sentence before each as its title.
 * The API reference page shows them (lib/http/api-examples.ts holds a copy, checked equal by a unit test) and
 * e2e/api-readme.spec.ts runs them against the built app.
 */
export interface ShExample {
  title: string;
  code: string;
}

export function readmeApiExamples(readme: string, heading = '## Use the API'): ShExample[] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const examples: ShExample[] = [];
  const re = /```sh\n([\s\S]*?)```/g;
  let last = 0;
  for (let m = re.exec(section); m; m = re.exec(section)) {
    const before = section.slice(last, m.index).trim().split(/\n\n/).pop() ?? '';
    examples.push({ title: before.replace(/\s+/g, ' ').replace(/:$/, ''), code: (m[1] ?? '').trimEnd() });
    last = m.index + m[0].length;
  }
  return examples;
}
