/**
 * The post-sign-in destination (`?next=`): only a same-origin path, never anything that leaves the site, and
 * never an error whatever the input. Refused (→ the default): anything that is not a string starting with one `/`;
 * `//` and `/\` (protocol-relative to browsers); control characters (tab, newline: browsers strip them, so
 * `/\t/evil.example` becomes `//evil.example`; in a Location header they are an error) and backslashes, also after
 * percent-decoding (repeatedly, so double-encoded variants count); malformed percent-encoding; anything that
 * resolves to another origin. What passes is re-serialised by
 * the WHATWG URL parser (dot segments removed, unsafe characters percent-encoded) and checked again.
 */
export const DEFAULT_NEXT = '/documents';
const MAX_LENGTH = 2048;
const BASE = 'http://docuchat.invalid';
// C0 controls, DEL, C1 controls, and the Unicode line/paragraph separators
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/;

/** The value and its successive percent-decodings; null when one is malformed (no link we build ever is). */
function decodedForms(value: string): string[] | null {
  const forms = [value];
  let current = value;
  for (let i = 0; i < 8 && current.includes('%'); i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return current.includes('%') && forms.length > 8 ? null : forms;
}

function looksSafe(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !FORBIDDEN.test(path);
}

export function safeNextPath(next: unknown, fallback: string = DEFAULT_NEXT): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > MAX_LENGTH) return fallback;
  const forms = decodedForms(next);
  if (!forms?.every(looksSafe)) return fallback;
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!looksSafe(path) || path.length > MAX_LENGTH) return fallback;
  // The normalised path must pass the same checks as its input did ("/../%2F" resolves to "/%2F", whose decoded
  // form starts with "//"): what is returned is always a fixed point.
  return decodedForms(path)?.every(looksSafe) ? path : fallback;
}
