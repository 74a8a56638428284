/**
 * Questions about the library rather than one passage: "Which of my documents were written by X?", "What do my
 * documents say about X?", "What are the French municipal documents about?" (and the same forms in French and
 * German, the library's other languages). Such a question is answered per document: its search looks for the
 * subject across documents (the best passages of each document, not the six best passages of one), one passage
 * per matching document is opened, and the answer gives one line per document, naming it and quoting the passage
 * that names the subject (for authorship: an author line or a "by X" statement). Detection is the grammar of the
 * question (a plural document noun with a question word and a verb of writing, saying or mentioning), never a
 * list of subjects.
 */

export type DocumentQuestionKind = 'authorship' | 'mentions' | 'about' | 'overview';

export interface DocumentQuestion {
  kind: DocumentQuestionKind;
  /**
   * What the documents are searched for: a person (authorship), a subject (mentions) or a description (about); for
   * an overview ("what is this document about?", "summarise report.pdf") the document's name, or '' for the
   * documents in scope ("this document", "my documents").
   */
  subject: string;
  /** ISO 639-1 code of the language the question restricts the documents to ("the French documents"), else null. */
  language: string | null;
}

/** Nouns for documents, in English, French and German (singular and plural). */
const DOCS =
  '(?:documents?|docs|files?|papers?|reports?|texts?|pdfs?|records?|fichiers?|textes?|rapports?|dokumente?n?|dateien?|texte?n?|berichte?n?|unterlagen)';
/** Plural nouns for documents: "what do the documents say" asks across documents, "what does the report say" not. */
const DOCS_PLURAL =
  '(?:documents|docs|files|papers|reports|texts|pdfs|records|fichiers|textes|rapports|dokumente|dokumenten|dateien|texte|texten|berichte|berichten|unterlagen)';
/** "my", "the", "these", "all (of) my", "of my" in the three languages. */
const OWNER =
  '(?:(?:all\\s+)?(?:of\\s+)?(?:my|the|these|those|our|your)\\s+|les\\s+|mes\\s+|ces\\s+|nos\\s+|des\\s+|de\\s+mes\\s+|(?:die|meine|diese|unsere|den|meinen|der|meiner)\\s+)?';
const WRITE_EN = '(?:written|authored|created|produced|prepared|composed|signed|drafted|published)';
const WRITE_FR = '(?:[ée]crits?e?s?|r[ée]dig[ée]e?s?|sign[ée]e?s?|cr[ée]{2}e?s?|publi[ée]e?s?|compos[ée]e?s?)';
const WRITE_DE = '(?:geschrieben|verfasst|erstellt|signiert|unterzeichnet|ver[öo]ffentlicht|herausgegeben)';
const MENTION_EN =
  '(?:mention|mentions|discuss|discusses|refer\\s+to|refers\\s+to|talk\\s+about|talks\\s+about|deal\\s+with|deals\\s+with|cover|covers|contain|contains|relate\\s+to|relates\\s+to|concern|concerns|name|names|cite|cites)';
const MENTION_FR =
  "(?:mentionnent|mentionne|parlent\\s+d[e']|parle\\s+d[e']|traitent\\s+d[e']|traite\\s+d[e']|[ée]voquent|[ée]voque|citent|cite|concernent|concerne)";
const MENTION_DE = '(?:erw[äa]hnen|erw[äa]hnt|behandeln|behandelt|nennen|nennt|betreffen|betrifft|handeln\\s+von)';
const SAY = '(?:say|says|tell\\s+me|state|states|contain|report|write)';
const ABOUT_EN = '(?:about|on|regarding|concerning|of)';
const ABOUT_FR = "(?:sur|à\\s+propos\\s+d[e'u]|au\\s+sujet\\s+d[e'u]|concernant)";
const ABOUT_DE = '(?:über|zu|zum|zur|bezüglich)';
/** A document in the singular, as a question points at it ("this document", "the PDF"). */
const DOC_SINGULAR =
  '(?:document|doc|file|pdf|report|paper|text|upload|fichier|rapport|texte|dokument|datei|bericht|text)';
/** "this", "the", "that", "my" before a document noun. */
const THIS = '(?:this|the|that|my|the\\s+attached|the\\s+uploaded)';
/** "my documents", "these files", "all (of) my documents". */
const THESE = '(?:(?:all\\s+)?(?:of\\s+)?(?:my|the|these|those|our)\\s+)';
/** "a (short) summary of", "an overview of". */
const SUMMARY_OF =
  '(?:(?:give|show|write)\\s+(?:me\\s+)?|can\\s+you\\s+give\\s+(?:me\\s+)?)?(?:a|an)\\s+(?:short\\s+|brief\\s+|quick\\s+|high-level\\s+)?(?:summary|overview|outline|description|synopsis)\\s+of';
/** "summarise", "sum up", "describe", "tell me about", "a summary of", optionally after "please" / "can you". */
const SUMMARISE = `(?:(?:please\\s+|can\\s+you\\s+|could\\s+you\\s+)?(?:summari[sz]e|sum\\s+up|describe|outline|tell\\s+me\\s+about)|${SUMMARY_OF})`;
/** A document's name as a question writes it: quoted, or a few words (a file name included). */
const NAME = '["“\'‘]?([^"”’?]{2,120}?)["”\'’]?';
/** "the main points of", "the key findings in": what a summary of a named document may ask for first. */
const POINTS_OF =
  '(?:(?:the\\s+)?(?:main|key|most\\s+important|important|major)\\s+(?:points|ideas|findings|takeaways|topics|messages)\\s+(?:of|in|from)\\s+)?';
const END = '\\s*[?.!]*\\s*$';

/** The subject: what follows, up to the question mark. */
const SUBJECT = '(.+?)\\s*[?.!]*\\s*$';

interface Form {
  kind: DocumentQuestionKind;
  re: RegExp;
  /** Which capture group holds the subject; the descriptor group (adjectives around the document noun), if any. */
  subject: number;
  descriptor?: number;
}

const FORMS: Form[] = [
  // Which (of my) documents were written by X? / Which documents are by X?
  {
    kind: 'authorship',
    re: new RegExp(
      `^\\s*(?:which|what)\\s+${OWNER}${DOCS}\\s+(?:were|was|are|is|have\\s+been|has\\s+been)\\s+(?:${WRITE_EN}\\s+)?by\\s+${SUBJECT}`,
      'iu',
    ),
    subject: 1,
  },
  // Which documents did X write?
  {
    kind: 'authorship',
    re: new RegExp(
      `^\\s*(?:which|what)\\s+${OWNER}${DOCS}\\s+(?:did|has|have)\\s+(.+?)\\s+(?:write|author|create|prepare|sign|draft|publish|written|authored|created|prepared|signed|drafted|published)\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // (List|Show|Find) (the) documents written by X.
  {
    kind: 'authorship',
    re: new RegExp(`^\\s*(?:list|show|find|name)\\s+${OWNER}${DOCS}\\s+(?:${WRITE_EN}\\s+)?by\\s+${SUBJECT}`, 'iu'),
    subject: 1,
  },
  // Quels (de mes) documents ont été écrits par X ? / Lesquels de mes documents sont de X ?
  {
    kind: 'authorship',
    re: new RegExp(
      `^\\s*(?:quel(?:le)?s?|lesquel(?:le)?s)\\s+${OWNER}${DOCS}?\\s*(?:ont\\s+été|a\\s+été|sont|furent|est)\\s+(?:${WRITE_FR}\\s+par|de)\\s+${SUBJECT}`,
      'iu',
    ),
    subject: 1,
  },
  // Welche (meiner) Dokumente wurden von X geschrieben? / Welche Dokumente hat X geschrieben?
  {
    kind: 'authorship',
    re: new RegExp(
      `^\\s*welche[rsn]?\\s+${OWNER}${DOCS}\\s+(?:wurden|sind|wurde|ist)\\s+von\\s+(.+?)\\s+${WRITE_DE}\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  {
    kind: 'authorship',
    re: new RegExp(
      `^\\s*welche[rsn]?\\s+${OWNER}${DOCS}\\s+(?:hat|haben)\\s+(.+?)\\s+${WRITE_DE}\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // What do my documents say about X? / What does each document say about X?
  {
    kind: 'mentions',
    re: new RegExp(
      `^\\s*what\\s+(?:do\\s+${OWNER}${DOCS_PLURAL}|does\\s+each\\s+(?:of\\s+)?${OWNER}${DOCS})\\s+${SAY}\\s+${ABOUT_EN}\\s+${SUBJECT}`,
      'iu',
    ),
    subject: 1,
  },
  // What is said about X in my documents?
  {
    kind: 'mentions',
    re: new RegExp(
      `^\\s*what\\s+(?:is|are)\\s+(?:said|written|stated)\\s+${ABOUT_EN}\\s+(.+?)\\s+(?:in|across)\\s+${OWNER}${DOCS}\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // Which (of my) documents mention X? / In which documents is X mentioned?
  {
    kind: 'mentions',
    re: new RegExp(`^\\s*(?:which|what)\\s+${OWNER}${DOCS}\\s+${MENTION_EN}\\s+${SUBJECT}`, 'iu'),
    subject: 1,
  },
  {
    kind: 'mentions',
    re: new RegExp(
      `^\\s*(?:in\\s+)?which\\s+${OWNER}${DOCS}\\s+(?:is|are)\\s+(.+?)\\s+(?:mentioned|discussed|named|cited)\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // Que disent mes documents sur X ? / Quels documents mentionnent X ?
  {
    kind: 'mentions',
    re: new RegExp(`^\\s*que\\s+disent\\s+${OWNER}${DOCS_PLURAL}\\s+${ABOUT_FR}\\s*${SUBJECT}`, 'iu'),
    subject: 1,
  },
  {
    kind: 'mentions',
    re: new RegExp(`^\\s*(?:quel(?:le)?s?|lesquel(?:le)?s)\\s+${OWNER}${DOCS}?\\s*${MENTION_FR}\\s*${SUBJECT}`, 'iu'),
    subject: 1,
  },
  // Was sagen meine Dokumente über X? / Welche Dokumente erwähnen X?
  {
    kind: 'mentions',
    re: new RegExp(`^\\s*was\\s+(?:sagen|steht\\s+in)\\s+${OWNER}${DOCS_PLURAL}\\s+${ABOUT_DE}\\s+${SUBJECT}`, 'iu'),
    subject: 1,
  },
  {
    kind: 'mentions',
    re: new RegExp(`^\\s*welche[rsn]?\\s+${OWNER}${DOCS}\\s+${MENTION_DE}\\s+${SUBJECT}`, 'iu'),
    subject: 1,
  },
  // What is this document about? / What does the PDF cover? / Summarise this document. / Give me an overview of my files.
  {
    kind: 'overview',
    re: new RegExp(
      `^\\s*(?:what(?:'s|’s|\\s+is|\\s+was)\\s+${THIS}\\s+${DOC_SINGULAR}\\s+(?:about|on)|what\\s+does\\s+${THIS}\\s+${DOC_SINGULAR}\\s+(?:say|cover|contain|describe|discuss|talk\\s+about|deal\\s+with)|${SUMMARISE}\\s+${THIS}\\s+${DOC_SINGULAR}|what\\s+(?:are|were)\\s+${THESE}${DOCS_PLURAL}\\s+about|what\\s+do\\s+${THESE}${DOCS_PLURAL}\\s+(?:say|cover|contain|describe)|${SUMMARISE}\\s+${THESE}${DOCS_PLURAL})()${END}`,
      'iu',
    ),
    subject: 1,
  },
  // De quoi parle ce document ? / Résume ce document. / Worum geht es in diesem Dokument? / Fasse das Dokument zusammen.
  {
    kind: 'overview',
    re: new RegExp(
      `^\\s*(?:de\\s+quoi\\s+(?:parle|traite)\\s+(?:ce|cet|le|mon)\\s+${DOC_SINGULAR}|r[ée]sume[sz]?(?:-moi)?\\s+(?:ce|cet|le|mon)\\s+${DOC_SINGULAR}|(?:donne|fais)(?:-moi)?\\s+un\\s+r[ée]sum[ée]\\s+(?:de\\s+ce|du|de\\s+mon)\\s+${DOC_SINGULAR}|worum\\s+geht\\s+es\\s+in\\s+(?:diesem|dem|meinem)\\s+${DOC_SINGULAR}|wovon\\s+handelt\\s+(?:das|dieses|mein|der|dieser|die|diese)\\s+${DOC_SINGULAR}|fasse\\s+(?:das|dieses|mein|den|diesen|die|diese)\\s+${DOC_SINGULAR}\\s+zusammen)()${END}`,
      'iu',
    ),
    subject: 1,
  },
  // What is report.pdf about? / Summarise "Annual Report 2023". (A name no document has is not an overview: run-agent.)
  {
    kind: 'overview',
    re: new RegExp(`^\\s*what(?:'s|’s|\\s+is|\\s+was)\\s+${NAME}\\s+about${END}`, 'iu'),
    subject: 1,
  },
  {
    kind: 'overview',
    re: new RegExp(`^\\s*${SUMMARISE}\\s+${POINTS_OF}${NAME}${END}`, 'iu'),
    subject: 1,
  },
  // What are the main points of report.pdf?
  {
    kind: 'overview',
    re: new RegExp(
      `^\\s*what\\s+are\\s+(?:the\\s+)?(?:main|key|most\\s+important|major)\\s+(?:points|ideas|findings|takeaways|topics)\\s+(?:of|in)\\s+${NAME}${END}`,
      'iu',
    ),
    subject: 1,
  },
  // What are the French municipal documents about? / What are my documents on X about?
  {
    kind: 'about',
    re: new RegExp(
      `^\\s*what\\s+(?:are|were)\\s+(?:all\\s+)?(?:the|my|these|those|our)\\s+((?:[\\p{L}-]+\\s+){0,4})${DOCS_PLURAL}\\s+about\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // De quoi parlent les documents municipaux français ? / Sur quoi portent les documents X ?
  {
    kind: 'about',
    re: new RegExp(
      `^\\s*(?:de\\s+quoi\\s+(?:parlent|traitent)|sur\\s+quoi\\s+portent)\\s+(?:les|mes|ces|nos)\\s+${DOCS_PLURAL}((?:\\s+[\\p{L}-]+){0,4})\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
  // Worum geht es in den französischen Dokumenten? / Wovon handeln die X Dokumente?
  {
    kind: 'about',
    re: new RegExp(
      `^\\s*(?:worum\\s+geht\\s+es\\s+in|wovon\\s+handeln)\\s+(?:den|die|meinen|meine|diesen|diese)\\s+((?:[\\p{L}-]+\\s+){0,4})${DOCS_PLURAL}\\s*[?.!]*\\s*$`,
      'iu',
    ),
    subject: 1,
  },
];

/** Language adjectives and "in <language>" phrases, in English, French and German, by ISO 639-1 code. */
const LANGUAGE_WORDS: [string, RegExp][] = [
  ['en', /^(?:english|anglais(?:es?)?|anglaise?s?|englisch(?:e[nrs]?)?)$/iu],
  ['fr', /^(?:french|fran[çc]ais(?:es?)?|fran[çc]aise?s?|franz[öo]sisch(?:e[nrs]?)?)$/iu],
  ['de', /^(?:german|allemande?s?|deutsch(?:e[nrs]?)?)$/iu],
  ['zh', /^(?:chinese|chinoise?s?|chinesisch(?:e[nrs]?)?)$/iu],
  ['es', /^(?:spanish|espagnole?s?|spanisch(?:e[nrs]?)?)$/iu],
  ['it', /^(?:italian|italienne?s?|italienisch(?:e[nrs]?)?)$/iu],
  ['nl', /^(?:dutch|n[ée]erlandaise?s?|niederl[äa]ndisch(?:e[nrs]?)?)$/iu],
  ['pt', /^(?:portuguese|portugaise?s?|portugiesisch(?:e[nrs]?)?)$/iu],
  ['ru', /^(?:russian|russes?|russisch(?:e[nrs]?)?)$/iu],
  ['ja', /^(?:japanese|japonaise?s?|japanisch(?:e[nrs]?)?)$/iu],
];

function languageOf(word: string): string | null {
  for (const [code, re] of LANGUAGE_WORDS) if (re.test(word)) return code;
  return null;
}

/** Leading articles and trailing punctuation off a subject ("the Boeing Company?" → "Boeing Company"). */
function cleanSubject(raw: string): string {
  return raw
    .replace(/[?.!]+$/u, '')
    .replace(/^(?:the|a|an|le|la|les|l['’]|du|des|de\s+la|de|der|die|das|den|dem)\s+/iu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Pronouns and deictic words that never name a document ("what is it about?"). */
const NOT_A_NAME = /^(?:it|this|that|these|those|they|them|everything|all|this\s+one|that\s+one)$/iu;

/** Whether an overview's name can be a document's name (the catalog decides whether one has it). */
function isDocumentName(name: string): boolean {
  return !NOT_A_NAME.test(name) && name.split(/\s+/).length <= 8;
}

/** The document-level question a question asks, or null for a question about a passage. */
export function documentQuestion(question: string): DocumentQuestion | null {
  const q = question.replace(/\s+/g, ' ').trim();
  for (const form of FORMS) {
    const m = form.re.exec(q);
    const raw = m?.[form.subject];
    if (raw === undefined) continue;
    if (form.kind === 'overview') {
      const name = raw.trim().length === 0 ? '' : cleanSubject(raw);
      // "What is it about?", "Summarise this" and "summarise the findings of section 2" (a name that starts like a
      // document noun phrase but is one of the deictic forms) are not names.
      if (name.length > 0 && !isDocumentName(name)) continue;
      return { kind: 'overview', subject: name, language: null };
    }
    if (form.kind !== 'about') {
      const subject = cleanSubject(raw);
      if (subject.length < 2) continue;
      return { kind: form.kind, subject, language: null };
    }
    // A description: its language adjective restricts the documents; the other words are searched.
    let language: string | null = null;
    const words: string[] = [];
    for (const word of raw.trim().split(/\s+/).filter(Boolean)) {
      const code = languageOf(word);
      if (code && !language) language = code;
      else words.push(word);
    }
    const subject = cleanSubject(words.join(' '));
    if (subject.length < 2) continue;
    return { kind: 'about', subject, language };
  }
  return null;
}
