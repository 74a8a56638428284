import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, analyzeForIndex, analyzeQuery, analyzeQueryTerms } from '@/lib/retrieval/analyzer';
import {
  analysisLanguageOf,
  detectLanguage,
  detectQueryLanguage,
  likelyQueryLanguages,
  UNDETERMINED,
} from '@/lib/retrieval/language';

// Sentences taken from the German and French test documents (shared/data/documents) and SciFact.
const GERMAN =
  'Ein topologischer Raum ist ein Paar (X, T) bestehend aus einer Menge X und einer Menge von Teilmengen mit folgenden Eigenschaften. Die Elemente von T heißen offene Teilmengen von X.';
const FRENCH =
  'Une façon d’assister l’analyse d’entrepôt de données repose sur l’exploitation et la fouille de fichiers logs de requêtes OLAP. Dans ce papier, nous proposons une méthode pour résumer et interroger des logs.';
const ENGLISH =
  'Alterations of the architecture of cerebral white matter in the developing human brain can affect cortical development and result in functional disabilities.';

describe('detectLanguage (per chunk)', () => {
  it.each([
    ['German', GERMAN, 'de'],
    ['French', FRENCH, 'fr'],
    ['English', ENGLISH, 'en'],
  ])('detects %s prose', (_name, text, expected) => {
    expect(detectLanguage(text)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['numbers and symbols', '1,000,000 $ 3.14 — 42 % ∀x ∈ X'],
    ['a bare identifier', 'pg_reindex'],
    ['two words', 'Hello there'],
    ['punctuation', '!!! ??? ...'],
  ])('answers und when it cannot tell (%s)', (_name, text) => {
    expect(detectLanguage(text)).toBe(UNDETERMINED);
  });

  it('never throws and always answers a two-letter code or und', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        expect(detectLanguage(text)).toMatch(/^(?:[a-z]{2}|und)$/);
      }),
    );
  });

  it('analyses code, undetermined and unsupported languages with the English rules', () => {
    const code = 'export function parseConfig(path) { return JSON.parse(readFileSync(path, "utf8")); }';
    expect(analysisLanguageOf(detectLanguage(code))).toBe('en');
    expect(analysisLanguageOf('und')).toBe('en');
    expect(analysisLanguageOf('es')).toBe('en');
    expect(analysisLanguageOf(null)).toBe('en');
    expect(analysisLanguageOf('de')).toBe('de');
  });

  it('decides a long chunk by its opening (bounded cost) and still detects it', () => {
    expect(detectLanguage(`${GERMAN} `.repeat(200))).toBe('de');
  });
});

describe('German and French analysis', () => {
  it('stems German plurals and inflections to one term (Häuser/Haus, Räume/Raum)', () => {
    expect(analyze('Häuser', 'de')).toEqual(analyze('Haus', 'de'));
    expect(analyze('Räume', 'de')).toEqual(analyze('Raum', 'de'));
    expect(analyze('topologischer', 'de')).toEqual(analyze('topologische', 'de'));
    // Folding first: a query typed without umlauts meets the text.
    expect(analyze('Haeuser Hauser', 'de')).toContain(analyze('Haus', 'de')[0]);
  });

  it('stems French plurals and inflections to one term (maisons/maison, requêtes/requete)', () => {
    expect(analyze('maisons', 'fr')).toEqual(analyze('maison', 'fr'));
    expect(analyze('requêtes', 'fr')).toEqual(analyze('requete', 'fr'));
    expect(analyze('résumés', 'fr')).toEqual(analyze('résumé', 'fr'));
  });

  it('drops German and French stop words (query and index)', () => {
    expect(analyze('Die Elemente von T und der Raum', 'de')).toEqual(['element', 't', 'raum']);
    expect(analyzeForIndex('Die Elemente von T und der Raum', 'de')).toEqual(['element', 't', 'raum']);
    expect(analyze('les ventes de boissons dans les régions', 'fr')).toEqual(['vent', 'boisson', 'region']);
  });

  it('drops French elisions (l’, d’, qu’)', () => {
    expect(analyze('l’agrandissement', 'fr')).toEqual(analyze('agrandissement', 'fr'));
    expect(analyze("d'entrepôt qu'une", 'fr')).toEqual(analyze('entrepôt une', 'fr'));
    // English keeps its own apostrophe rules.
    expect(analyze("the patient's don't")).toEqual(['patient', 'dont']);
  });

  it('keeps English exactly as before for English text (Porter, English stop words)', () => {
    const text = 'The effects of running trials on diseases, covid-19 and IL-6 in 2019';
    expect(analyze(text, 'en')).toEqual(analyze(text));
    expect(analyze(text, 'und')).toEqual(analyze(text));
    expect(analyzeForIndex(text, 'en')).toEqual(analyzeForIndex(text));
    expect(analyze(text)).toEqual([
      'effect',
      'run',
      'trial',
      'diseas',
      'covid19',
      'covid',
      '19',
      'il6',
      'il',
      '6',
      '2019',
    ]);
  });

  it('keeps tokens with digits or underscores verbatim in every language', () => {
    for (const language of ['en', 'de', 'fr']) {
      expect(analyze('pg_reindex v2.1 1,000', language)).toEqual(['pg_reindex', 'pg', 'reindex', 'v2.1', '1000']);
    }
  });
});

describe('query analysis in a mixed library', () => {
  it('an English-only library analyses a query exactly as analyzeQuery did', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (query) => {
        expect(analyzeQueryTerms(query, ['en']).content).toEqual(analyze(query));
        const all = analyzeQueryTerms(query).all;
        expect(all).toEqual(analyzeForIndex(query));
        expect(analyzeQuery(query)).toEqual(analyze(query).length > 0 ? analyze(query) : all);
      }),
    );
  });

  it('a German question meets German text, an English question English text', () => {
    const library = ['en', 'de', 'fr'];
    const germanText = new Set(analyzeForIndex('Die Elemente von T heißen offene Teilmengen von X.', 'de'));
    const englishText = new Set(analyzeForIndex('The elements of T are called open subsets of X.', 'en'));
    const german = analyzeQueryTerms('Welche Teilmengen heißen offen?', library);
    expect(german.language).toBe('de');
    const wanted = analyze('Teilmengen offene', 'de');
    expect(wanted).toHaveLength(2);
    for (const term of wanted) {
      expect(german.content).toContain(term);
      expect(germanText.has(term)).toBe(true);
    }
    // German function words are not searched in English text.
    expect(german.content).not.toContain('welch');
    const english = analyzeQueryTerms('Which subsets are called open?', library);
    expect(english.language).toBe('en');
    expect(english.content.filter((term) => englishText.has(term))).toEqual(expect.arrayContaining(['subset', 'open']));
  });

  it('keeps a word that is a stop word only in another language when the query language is sure', () => {
    const terms = analyzeQueryTerms('Why do the infected cells die so quickly after exposure?', ['en', 'de']);
    expect(terms.language).toBe('en');
    expect(terms.content).toContain('die');
  });

  it('property: the union holds each library language’s own analysis of every content word', () => {
    const words = fc.constantFrom('Häuser', 'maisons', 'Räume', 'requêtes', 'cells', 'Überlagerungen', 'résumés');
    fc.assert(
      fc.property(fc.array(words, { minLength: 1, maxLength: 4 }), (picked) => {
        const query = picked.join(' ');
        const union = new Set(analyzeQueryTerms(query, ['en', 'de', 'fr']).content);
        for (const language of ['en', 'de', 'fr']) {
          for (const term of analyze(query, language)) expect(union.has(term)).toBe(true);
        }
      }),
    );
  });

  it('analyses a query only in languages the library holds', () => {
    const query = 'Wie viele Häuser gibt es?';
    expect(analyzeQueryTerms(query, ['en']).content).toEqual(analyze(query, 'en'));
    expect(analyzeQueryTerms(query, ['de']).content).toEqual(analyze(query, 'de'));
    expect(analyzeQueryTerms(query, ['und', 'es']).content).toEqual(analyze(query, 'en'));
  });

  it('detects a query language only among the candidates, null when unsure', () => {
    expect(detectQueryLanguage('Was ist ein topologischer Raum?', ['en', 'de'])).toBe('de');
    expect(detectQueryLanguage('Was ist ein topologischer Raum?', ['en', 'fr'])).toBeNull();
    expect(detectQueryLanguage('42', ['en', 'de'])).toBeNull();
    expect(likelyQueryLanguages('Quelle mesure évalue la qualité d’un résumé ?')).toEqual(['en', 'fr']);
    expect(likelyQueryLanguages('What measure evaluates a summary?')).toEqual(['en']);
  });
});
