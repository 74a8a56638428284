/**
 * Measurement questions: "how old", "how far", "how tall", "how heavy", "how fast", "how much did X cost", "how long
 * did X take" ask for a number of a dimension, and a passage answers only with a number said in a unit of that
 * dimension ("a 3-year-old child", "12 km away", "€ 4.50"). Any number in an on-topic sentence does not: "services
 * under ch. 938 were provided to the child" does not say how old the child was.
 *
 * The units are the closed vocabulary of measurement (SI and customary units, time spans, currency symbols, codes
 * and names) in English, with the common French and German forms; nothing here was taken from an eval set.
 */

import { NUMBER_WORD_ALTERNATION } from './number-words';

export type Dimension = 'age' | 'distance' | 'length' | 'weight' | 'speed' | 'money' | 'duration' | 'temperature';

/** The question forms that ask for a number of one dimension (English, French, German). */
const ASKS: readonly (readonly [RegExp, Dimension])[] = [
  [
    /\bhow\s+old\b|\b(?:at\s+)?(?:what|which)\s+age\b|\bquel\s+[âa]ge\b|\b[àa]\s+quel\s+[âa]ge\b|\bwie\s+alt\b/iu,
    'age',
  ],
  [/\bhow\s+far\b|\bwie\s+weit\b/iu, 'distance'],
  [/\bhow\s+(?:tall|deep|wide|thick)\b|\bwie\s+(?:tief|breit|dick)\b/iu, 'length'],
  [/\bhow\s+heavy\b|\bwie\s+schwer\b/iu, 'weight'],
  [/\bhow\s+fast\b|\bwie\s+schnell\b/iu, 'speed'],
  [
    /\bhow\s+(?:hot|cold|warm)\b|\b(?:what|which)\s+temperatures?\b|\bquelle\s+temp[ée]rature\b|\bwelche[rsn]?\s+temperatur\b|\bwie\s+(?:hei(?:ß|ss)|warm|kalt)\b/iu,
    'temperature',
  ],
  [
    /\bhow\s+much\b.*\b(?:cost|costs|costed|pay|paid|pays|paying|charge|charged|charges|spend|spent|spends|earn|earns|earned|price|priced|fee|fees|worth)\b|\bhow\s+much\b.*\b(?:sell|sold|buy|bought|rent|rented)\s+for\b|\bwie\s+viel\b.*\b(?:kostet|kosten|kostete|kosteten|bezahlt|bezahlte|zahlt|zahlte|verdient)\b|\bcombien\b.*\b(?:co[uû]te|co[uû]tent|co[uû]tait|pay[ée]e?s?|paie|vaut|valait)\b/iu,
    'money',
  ],
  [
    /\bhow\s+long\b.*\b(?:take|takes|took|taken|last|lasts|lasted|wait|waited|stay|stayed|live|lived|serve|served|run|ran|spend|spent)\b|\bfor\s+how\s+long\b|\bhow\s+long\s+ago\b/iu,
    'duration',
  ],
];

const TIME_UNITS =
  'second seconds sec secs s minute minutes min mins hour hours hr hrs h day days week weeks wk wks fortnight fortnights ' +
  'month months mo mos year years yr yrs y decade decades century centuries night nights ' +
  'seconde secondes heure heures jour jours semaine semaines mois an ans année années ' +
  'sekunde sekunden minuten stunde stunden tag tage tagen woche wochen monat monate monaten jahr jahre jahren jahres';
const LENGTH_UNITS =
  'nm µm um mm cm dm m km metre metres meter meters millimetre millimetres millimeter millimeters centimetre ' +
  'centimetres centimeter centimeters kilometre kilometres kilometer kilometers inch inches ft foot feet yard yards ' +
  'yd yds mile miles mi nmi league leagues ′ ″ \' " mètre mètres kilomètre kilomètres meile meilen fuß zoll';
const WEIGHT_UNITS =
  'mg g kg t gram grams gramme grammes kilogram kilograms kilo kilos tonne tonnes ton tons lb lbs pound pounds ounce ' +
  'ounces oz stone stones carat carats ct gramm kilogramm tonnen pfund';
const SPEED_UNITS = 'km/h kmh kph mph m/s km/s ft/s knot knots kn kt mach km/std';
/** "°" is kept on its word by the tokenizer: "230 °C", "95°C", "℃" (NFKC "°C"), "95 degrees C", "300 kelvin". */
const TEMPERATURE_UNITS = '° °c °f °k °r degree degrees deg celsius fahrenheit kelvin centigrade grad degré degrés';
const CURRENCY_WORDS =
  'dollar dollars euro euros eur usd gbp jpy cny rmb inr cad aud chf sek nok dkk pound pounds sterling yen yuan ' +
  'renminbi rupee rupees rs cent cents pence penny pennies franc francs krona kronor krone kroner peso pesos real ' +
  'reais rand won ruble rubles rouble roubles shilling shillings lira lire dinar dinars dirham dirhams riyal riyals ' +
  'baht ringgit rupiah zloty forint crore lakh';
const CURRENCY_SYMBOL = /[$€£¥₹₩₽₺₪฿]/u;

const words = (list: string) => new Set(list.split(' '));
const UNITS: Record<Dimension, ReadonlySet<string>> = {
  age: words(`${TIME_UNITS}`),
  distance: words(`${LENGTH_UNITS} ${TIME_UNITS}`),
  length: words(LENGTH_UNITS),
  weight: words(WEIGHT_UNITS),
  speed: words(SPEED_UNITS),
  money: words(CURRENCY_WORDS),
  duration: words(TIME_UNITS),
  temperature: words(TEMPERATURE_UNITS),
};

/** Words standing before the number that give its dimension: "aged 3", "Age: 3", "USD 40", "Rs. 500". */
const PREFIXES: Partial<Record<Dimension, ReadonlySet<string>>> = {
  age: words('aged age âgé âgée âgés âge alter'),
  money: words(CURRENCY_WORDS),
};

/** Scale words that may stand between a number and its unit: "4.5 million dollars", "2 and a half hours". */
const BETWEEN = words(
  'thousand million billion trillion k m bn mn mio mrd milliarden millionen and a half more or ' +
    // a currency's country: "45 US dollars", "3 Hong Kong dollars"
    'us u.s american canadian australian singapore new zealand hong kong taiwan swiss ' +
    // a span's kind and a range's other end: "2 business days", "1 to 2 working days", "3 full years"
    'to business working calendar full whole consecutive clear school banking additional extra more',
);

const NUMBER_WORD = new RegExp(`^(?:${NUMBER_WORD_ALTERNATION})$`, 'iu');

/** The dimension a question asks a number of, or null when it asks none of these. */
export function askedDimension(question: string): Dimension | null {
  const q = question.replace(/\s+/g, ' ');
  for (const [form, dimension] of ASKS) if (form.test(q)) return dimension;
  return null;
}

interface Token {
  /** The word without surrounding punctuation, lower case. */
  word: string;
  /** The number it holds (digits or a number word), if any. */
  number: string | null;
  /** What is glued to the number: a currency symbol before it, a unit after it ("5km", "$5", "10€"). */
  glued: string;
  symbol: boolean;
  /** The word ends a clause: punctuation follows it ("old," "old."). */
  closes: boolean;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const raw of text.normalize('NFKC').split(/[\s\u2010-\u2015-]+/u)) {
    const symbol = CURRENCY_SYMBOL.test(raw);
    const word = raw
      .toLowerCase()
      .replace(/^[^\p{L}\p{N}$€£¥₹₩₽₺₪฿′″'"°]+/u, '')
      .replace(/[^\p{L}\p{N}$€£¥₹₩₽₺₪฿′″'"/°]+$/u, '')
      .replace(/[.:]+$/u, '');
    if (word.length === 0 && !symbol) continue;
    const closes = /[.,;:!?)\]]$/u.test(raw);
    const digits = /^((?:\p{L}{1,3})?[$€£¥₹₩₽₺₪฿]+|)(\d+(?:[.,]\d+)*)(.*)$/u.exec(word);
    if (digits)
      out.push({ word, number: digits[2] ?? null, glued: `${digits[1] ?? ''}${digits[3] ?? ''}`, symbol, closes });
    else out.push({ word, number: NUMBER_WORD.test(word) ? word : null, glued: '', symbol, closes });
  }
  return out;
}

/** Whether a word is a unit of the dimension ("km", "years", "€"; "3-year-old" is split at its hyphens). */
function isUnit(word: string, dimension: Dimension): boolean {
  if (dimension === 'money' && CURRENCY_SYMBOL.test(word)) return true;
  return UNITS[dimension].has(word.replace(/[.]+$/u, ''));
}

const OF = words('of de von');

/**
 * After a time unit, what makes the span an age: "3 years old", "a 3-year-old child" (the hyphens split), "54 years
 * of age", "drei Jahre alt". A bare span is not: "in the previous five years", "for 3 years".
 */
function saysOld(tokens: readonly Token[], unit: number): boolean {
  const next = tokens[unit + 1]?.word;
  return next === 'old' || next === 'alt' || (next === 'of' && tokens[unit + 2]?.word === 'age');
}

/** Words after "N years old" that do not name whose age it is ("3 years old when", "aged 3 and over"). */
const NOT_A_NOUN = words(
  'and or but at in on when while who whom whose which that with without was were is are had has have by from of to ' +
    'for as than the a an his her their its this these those then there living old',
);

/**
 * The noun an attributive age qualifies: "a 3-year-old child" → "child", "the boyfriend's 4 year old son" → "son";
 * null when the age is said of the subject ("the child was 3 years old.", "3 years old at the time").
 */
function agedNoun(tokens: readonly Token[], unit: number): string | null {
  const old = tokens[unit + 1];
  const next = tokens[unit + 2];
  if (old?.word !== 'old' || old.closes || !next || next.number !== null) return null;
  return /^\p{Ll}+$/u.test(next.word) && !NOT_A_NOUN.has(next.word) ? next.word : null;
}

/** Whether two words are one word's forms ("child" / "children"; "son" / "sons"): a shared stem of four letters. */
function sameWord(a: string, b: string): boolean {
  if (a === b || a === `${b}s` || b === `${a}s`) return true;
  const n = Math.min(a.length, b.length);
  return n >= 4 && a.slice(0, 4) === b.slice(0, 4) && Math.abs(a.length - b.length) <= 3;
}

/** The question's own words that may name whose measure is asked ("child", "mother"): letters, three or more. */
const QUESTION_GLUE = words(
  'how old was were is are the what which age did does do when his her their its and for who whom whose has have had ' +
    'at time aged years year',
);

function askedNouns(question: string): string[] {
  return (question.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((w) => !QUESTION_GLUE.has(w));
}

const BIRTH = words('born né née geboren geb');

/** Whether the words after "born" give a year (four digits, the question's own numbers included). */
function bornYear(after: readonly Token[]): boolean {
  return after.some((t) => t.number !== null && /^\d{4}$/.test(t.number));
}

/** How many words may stand between a number and its unit ("4.5 million dollars", "two and a half hours"). */
const GAP = 4;

/**
 * Whether `text` says a number of the dimension `question` asks for (a number the question does not give, with a
 * unit of that dimension next to it). True when the question asks for no such dimension.
 */
export function saysMeasure(text: string, question: string): boolean {
  return measureReader(question)(text);
}

/**
 * `saysMeasure` for one question over many sentences: the question is read once (the answerer checks every opened
 * sentence), and a question that asks no dimension reads no sentence.
 */
export function measureReader(question: string): (text: string) => boolean {
  const dimension = askedDimension(question);
  if (dimension === null) return () => true;
  const asked = new Set(question.match(/\d+(?:[.,]\d+)*/g) ?? []);
  const nouns = askedNouns(question);
  return (text) => saysDimension(tokenize(text), dimension, asked, nouns);
}

/**
 * Whether an age said of `noun` ("the boyfriend's 4 year old son") belongs to another than the one asked about: the
 * question does not name that noun and the sentence names one the question does ("How old was the child?" over "the
 * child resided with … the boyfriend's 4 year old son"). An age of a noun the sentence alone names ("How old was the
 * victim?" over "a 3-year-old child was brought in") may well be the asked one's, and is kept.
 */
function ageOfAnother(noun: string, tokens: readonly Token[], nouns: readonly string[]): boolean {
  if (nouns.some((n) => sameWord(n, noun))) return false;
  return tokens.some((t) => t.word !== noun && nouns.some((n) => sameWord(n, t.word.replace(/['’]s$/u, ''))));
}

function saysDimension(
  tokens: readonly Token[],
  dimension: Dimension,
  asked: ReadonlySet<string>,
  nouns: readonly string[] = [],
): boolean {
  const prefixes = PREFIXES[dimension];
  // An age is also said by a birth date: "born 13 April 1953", "née le 2 mai 1960", "geboren 1948".
  if (dimension === 'age' && tokens.some((t, i) => BIRTH.has(t.word) && bornYear(tokens.slice(i + 1, i + 5))))
    return true;
  return tokens.some((t, i) => {
    if (t.number === null || asked.has(t.number)) return false;
    if (
      t.glued.length > 0 &&
      dimension !== 'age' &&
      (isUnit(t.glued, dimension) || (dimension === 'money' && t.symbol))
    )
      return true;
    // an amount written to the cent is money, in a ledger line that names no currency: "37,499.96", "15,50"
    if (dimension === 'money' && /^\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}$/.test(t.number)) return true;
    // a unit after it, past scale words only: "12 km", "4.5 million dollars", "two and a half hours"
    for (let j = i + 1; j < tokens.length && j <= i + GAP; j++) {
      const next = tokens[j] as Token;
      if (isUnit(next.word, dimension)) {
        if (dimension !== 'age') return true;
        if (saysOld(tokens, j)) {
          const noun = agedNoun(tokens, j);
          if (noun === null || !ageOfAnother(noun, tokens, nouns)) return true;
        }
        break;
      }
      if (!BETWEEN.has(next.word)) break;
    }
    // a unit or label before it: "$ 5", "USD 40", "aged 3", "Age: 3"
    const before = tokens[i - 1];
    if (before && (isUnit(before.word, dimension) || prefixes?.has(before.word))) return true;
    // "at the age of 87", "à l'âge de 87 ans"
    const label = tokens[i - 2];
    return Boolean(before && label && OF.has(before.word) && prefixes?.has(label.word));
  });
}

/**
 * The words a question asks a dimension with ("cost", "pay", "price" for money; "heavy", "weigh" for weight): what a
 * column header naming the dimension's unit says for the question. Its other words ("repair" in "how much does the
 * drill cost to repair") must still be said by the header.
 */
const ASKING_WORDS: Record<Dimension, ReadonlySet<string>> = {
  age: words('old age aged'),
  distance: words('far distance'),
  length: words('tall deep wide thick height depth width thickness'),
  weight: words('heavy weigh weighs weighed weight'),
  speed: words('fast speed'),
  money: words(
    'cost costs costed pay paid pays paying charge charged charges spend spent spends earn earns earned price priced ' +
      'fee fees worth sell sold buy bought rent rented kostet kosten kostete kosteten bezahlt bezahlte zahlt zahlte ' +
      'verdient coûte coûtent coûtait coute coutent coutait payé payée payés paie vaut valait',
  ),
  duration: words('long take takes took taken last lasts lasted'),
  temperature: words('hot cold warm temperature temperatures température temperatur heiß heiss kalt'),
};

/** Whether a question's word (lower case) is one it asks its dimension with (`ASKING_WORDS`). */
export function asksDimensionWith(question: string, word: string): boolean {
  const dimension = askedDimension(question);
  return dimension !== null && ASKING_WORDS[dimension].has(word.toLowerCase());
}

/**
 * For a question asking a number of one dimension, whether a table's column header names a unit of it ("Price (EUR)",
 * "Weight kg", "Cost $" for "how much does X cost", "how heavy is X"): the column holds the asked measure even when its
 * header does not repeat the question's verb. Null when the question asks no dimension.
 */
export function unitHeaderReader(question: string): ((header: string) => boolean) | null {
  const dimension = askedDimension(question);
  if (dimension === null) return null;
  return (header) =>
    tokenize(header).some((t) => isUnit(t.word, dimension) || (dimension === 'money' && t.symbol && t.number === null));
}
