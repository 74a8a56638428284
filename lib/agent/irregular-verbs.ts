/**
 * English irregular verbs: the past and participle forms the stemmer cannot bring back to their base ("wrote",
 * "written" → "write"; "sent" → "send"; "drew", "drawn" → "draw"), so that a question's verb meets the words the
 * documents derive from its base: the agent noun of a field label ("Writer:", "Sender:", "Drawings by"), the base
 * itself ("to write"). Regular verbs need no table: the stemmer's family rule already meets "illustrated" and
 * "Illustrator", "published" and "Publisher" (one stem a prefix of the other).
 *
 * The table is the closed class of common English irregular verbs (as the stop lists are the closed class of
 * function words), not words picked for any question. Left out: forms that are also another common word
 * ("found" is a verb of its own; "left", "saw", "lay", "led", "rose", "bore", "wound", "ground", "bound", "felt",
 * "lit", "fell", "spoke", "rung" ...), and bases shorter than four letters, which the family rule never stretches.
 */
const FORMS: Readonly<Record<string, readonly string[]>> = {
  become: ['became'],
  begin: ['began', 'begun'],
  bend: ['bent'],
  bite: ['bitten'],
  blow: ['blew', 'blown'],
  break: ['broke', 'broken'],
  breed: ['bred'],
  bring: ['brought'],
  build: ['built'],
  burn: ['burnt'],
  catch: ['caught'],
  choose: ['chose', 'chosen'],
  cling: ['clung'],
  come: ['came'],
  creep: ['crept'],
  deal: ['dealt'],
  draw: ['drew', 'drawn'],
  dream: ['dreamt'],
  drink: ['drank', 'drunk'],
  drive: ['drove', 'driven'],
  feed: ['fed'],
  fight: ['fought'],
  flee: ['fled'],
  fling: ['flung'],
  forbid: ['forbade', 'forbidden'],
  forget: ['forgot', 'forgotten'],
  forgive: ['forgave', 'forgiven'],
  freeze: ['froze', 'frozen'],
  give: ['gave', 'given'],
  grow: ['grew', 'grown'],
  hang: ['hung'],
  hear: ['heard'],
  hide: ['hid', 'hidden'],
  hold: ['held'],
  keep: ['kept'],
  know: ['knew', 'known'],
  lend: ['lent'],
  lose: ['lost'],
  make: ['made'],
  mean: ['meant'],
  meet: ['met'],
  pay: ['paid'],
  ride: ['rode', 'ridden'],
  seek: ['sought'],
  sell: ['sold'],
  send: ['sent'],
  shake: ['shook', 'shaken'],
  shine: ['shone'],
  shoot: ['shot'],
  shrink: ['shrank', 'shrunk'],
  sing: ['sang', 'sung'],
  sink: ['sank', 'sunk'],
  sleep: ['slept'],
  slide: ['slid'],
  speak: ['spoken'],
  spend: ['spent'],
  spin: ['spun'],
  stand: ['stood'],
  steal: ['stole', 'stolen'],
  stick: ['stuck'],
  sting: ['stung'],
  strike: ['struck'],
  swear: ['swore', 'sworn'],
  sweep: ['swept'],
  swim: ['swam', 'swum'],
  swing: ['swung'],
  take: ['took', 'taken'],
  teach: ['taught'],
  tear: ['tore', 'torn'],
  tell: ['told'],
  think: ['thought'],
  throw: ['threw', 'thrown'],
  understand: ['understood'],
  wake: ['woke', 'woken'],
  wear: ['wore', 'worn'],
  weave: ['wove', 'woven'],
  weep: ['wept'],
  win: ['won'],
  write: ['wrote', 'written'],
};

/** Irregular form (lower case) → its base. */
const BASE_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(FORMS).flatMap(([base, forms]) => forms.map((f) => [f, base] as const)),
);

/**
 * The base of an irregular English verb form ("wrote" → "write", "sent" → "send"), or null. `analyse` turns the
 * base into the caller's terms (the stemmer), so the base compares with analysed text as any other term does.
 */
export function irregularBase(term: string, analyse: (word: string) => string[]): string | null {
  const base = BASE_OF.get(term.toLowerCase());
  if (base === undefined) return null;
  return analyse(base)[0] ?? null;
}
