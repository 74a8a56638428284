import { analyze } from '@/lib/retrieval/analyzer';
import { keyTerms, splitSentences } from './text';

/**
 * Prompt-injection detection, for questions and for retrieved text (indirect injection).
 *
 * Retrieved text is data, never instructions: a chunk that looks like it addresses the assistant is flagged, its
 * instruction-like spans are kept so validation can catch an answer or a tool call that repeats them, and the text
 * still counts as evidence for what it really says.
 *
 * The detector is built from the general shape of instruction injection, not from any benchmark's attack texts:
 * each sentence collects weighted signals and is flagged when they add up.
 *   - override: telling the reader to ignore/forget earlier instructions (strong on its own);
 *   - template: chat-template or turn delimiters that spoof a conversation (<|im_start|>, [INST], "Assistant:");
 *   - hidden: invisible Unicode tag characters, runs of zero-width or bidi control characters;
 *   - address: the text speaks to an AI/assistant/model ("Note to the AI:", "if you are a language model");
 *   - role: authority or persona claims ("you are now", "new instructions:", "developer mode");
 *   - response: directions about the reader's answer ("in your response", "begin your reply with");
 *   - exfiltration: sending conversation, credentials or user data somewhere, or links with data placeholders;
 *   - secrecy: hiding the instruction from the user; user3: the user referred to in the third person as a target;
 *   - tool: asking to call a tool/function; obfuscation: encode/translate/reverse the output;
 *   - directive: the sentence is an imperative (weak alone; documents are full of them).
 * English, German, French and Spanish phrasings are covered. In code (most lines look like code), the signals that
 * ordinary code and its comments produce (imperatives, tool/function calls, template tokens in string literals,
 * links) weigh half, so a comment saying "ignore" or "call the function" is not an attack.
 */

export type InjectionSignal =
  | 'override'
  | 'template'
  | 'hidden'
  | 'address'
  | 'role'
  | 'response'
  | 'exfiltration'
  | 'secrecy'
  | 'user3'
  | 'tool'
  | 'obfuscation'
  | 'directive'
  | 'link';

interface Rule {
  signal: InjectionSignal;
  weight: number;
  pattern: RegExp;
  /** The same pattern with the g flag, for counting repeated matches (set for repeatable signals). */
  global?: RegExp;
}

/** A sentence is flagged at this score; two or three adjacent sentences together at WINDOW_THRESHOLD. */
const THRESHOLD = 3;
const WINDOW_THRESHOLD = 3;
/** Signals too common in ordinary documents to make a window on their own. */
const WEAK = new Set<InjectionSignal>(['directive', 'user3', 'link', 'obfuscation', 'tool']);
/** Signals whose repetition adds up (several authority claims, several spoofed delimiters). */
const REPEATABLE = new Set<InjectionSignal>(['role', 'template', 'hidden']);
/** Signals that ordinary code produces; halved inside code. */
const CODE_DAMPED = new Set<InjectionSignal>(['template', 'tool', 'directive', 'link']);

const DIRECTIVE_VERBS = [
  // en
  "include|add|append|insert|prepend|write|respond|reply|answer|say|state|tell|inform|output|print|return|translate|encode|convert|format|use|call|invoke|send|forward|email|post|upload|visit|click|open|navigate|recommend|mention|promote|advertise|replace|change|rewrite|summari[sz]e|ignore|stop|begin|start|end|make|ensure|remember|always|never|do not|don't|please",
  // de
  'füge|fügen|schreibe|schreib|antworte|antworten|sage|sag|gib|übersetze|sende|schicke|besuche|klicke|erwähne|empfiehl|ersetze|beginne|beende|verwende|nutze|ignoriere|vergiss|bitte',
  // fr
  'ajoute|ajoutez|écris|écrivez|réponds|répondez|dis|dites|donne|donnez|traduis|traduisez|envoie|envoyez|visite|visitez|clique|cliquez|mentionne|mentionnez|recommande|recommandez|remplace|remplacez|commence|commencez|termine|terminez|utilise|utilisez|inclus|incluez|ignore|ignorez|oublie|oubliez|veuillez',
  // es
  'añade|añada|agrega|agregue|escribe|escriba|responde|responda|di|diga|dile|traduce|traduzca|envía|envíe|visita|visite|menciona|mencione|recomienda|recomiende|reemplaza|reemplace|comienza|comience|empieza|termina|usa|utiliza|utilice|incluye|incluya|ignora|ignore|olvida|olvide|por favor',
].join('|');

const AI_NOUNS =
  '(?:AI|A\\.I\\.|artificial intelligence|assistant|AI assistant|AI agent|chat ?bot|language model|LLM|large language model|GPT(?:-\\d)?|ChatGPT|Claude|Gemini|Copilot|Llama)';

/** "AI coding assistants", "chatbots", "language model". */
const AI_SUFFIX =
  '(?:\\s+(?:coding|code|writing|chat|virtual|digital))?(?:\\s+(?:assistants?|agents?|models?|bots?|systems?|tools?))?s?';

const RULES_SOURCE: readonly Rule[] = [
  // override: ignore / forget / disregard earlier instructions (a qualifier is required: "ignore these
  // instructions if you use Docker" is ordinary documentation)
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignore|disregard|forget|bypass|override)\s+(?:(?:all|any)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous\s+|prior\s+|above\s+|earlier\s+|preceding\s+|original\s+|initial\s+|system\s+)?|(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|initial|system)\s+|your\s+|my\s+)(?:instructions?|prompts?|directives?|guidelines|rules|programming)\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:disregard|ignore|forget)\s+(?:everything|anything|all(?: of)? (?:that|this|the above))\s+(?:above|before|previously|said|you (?:were|have been) told|so far|up to (?:now|here))\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:previous|prior|above|earlier|original|system)\s+(?:instructions?|prompts?|rules)\s+(?:are|is|were|have been)\s+(?:void|cancel+ed|revoked|obsolete|outdated|no longer (?:valid|apply|relevant)|replaced|overridden)\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignorier(?:e|en Sie)|vergiss|vergessen Sie|missachte|missachten Sie|übergehe|verwirf)\s+(?:bitte\s+)?(?:alle\s+|sämtliche\s+|die\s+|deine\s+|Ihre\s+|jegliche\s+)*(?:vorherigen|vorigen|bisherigen|obigen|früheren|vorangegangenen|ursprünglichen|bisher\s+erhaltenen)?\s*(?:Anweisungen|Instruktionen|Befehle|Vorgaben|Regeln|Anordnungen|Richtlinien)\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignore[rz]?|oublie[rz]?|ne tiens? pas compte|ne tenez pas compte|fais abstraction|faites abstraction)\s+(?:de\s+|des\s+|d['’]\s*)?(?:toutes?\s+)?(?:les\s+|tes\s+|vos\s+|ces\s+)?(?:instructions|consignes|règles|directives|ordres)(?:\s+(?:précédentes|antérieures|ci-dessus|initiales|reçues))?\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignora|ignore|ignorad|olvida|olvide|olvidad|haz caso omiso (?:de|a)|omite|omita|descarta|descarte)\s+(?:todas\s+)?(?:las\s+|tus\s+|sus\s+|estas\s+)?(?:instrucciones|indicaciones|reglas|órdenes|directrices|consignas)(?:\s+(?:anteriores|previas|de arriba|originales|iniciales))?\b/iu,
  },
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:the\s+|your\s+)?(?:user|human|customer)(?:'s|s')?\s+(?:request|question|query|instructions?|prompt|message)s?\b|\b(?:ignorier(?:e|en Sie)|missachte)\s+(?:die\s+)?(?:Anfrage|Frage|Anweisung)\s+(?:des|der)\s+(?:Nutzers|Benutzers|Anwenders|Nutzerin)\b|\b(?:ignore[rz]?)\s+(?:la\s+)?(?:demande|question|requête)\s+de\s+l['’]\s*utilisateur\b|\b(?:ignora|ignore)\s+(?:la\s+)?(?:petición|pregunta|solicitud|consulta)\s+del\s+usuario\b/iu,
  },
  // template / delimiter spoofing
  {
    signal: 'template',
    weight: 3,
    pattern:
      /<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\s*\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:start|end)_of_turn>/iu,
  },
  {
    signal: 'template',
    weight: 1.5,
    pattern: /(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant|human|user|ai)\s*(?:prompt|message|instruction)?\s*:\s*\S/iu,
  },
  {
    signal: 'template',
    weight: 1.5,
    pattern: /(?:^|\n)\s*#{2,}\s*(?:instruction|input|response|system|user|assistant)s?\s*:?\s*(?:\n|$)/iu,
  },
  {
    signal: 'template',
    weight: 1.5,
    pattern:
      /(?:<\/\s*(?:document|context|data|email|source|search_results?|tool_output)\s*>|\b(?:end of (?:the )?(?:document|context|email|data|search results?|file)|ende des dokuments|fin du document|fin del documento)\b)/iu,
  },
  // hidden text
  { signal: 'hidden', weight: 3, pattern: /[\u{E0020}-\u{E007F}]{4,}/u },
  { signal: 'hidden', weight: 2, pattern: /(?:[\u200B-\u200D\u2060\uFEFF][^\u200B-\u200D\u2060\uFEFF]{0,3}){4,}/u },
  { signal: 'hidden', weight: 1.5, pattern: /[\u202A-\u202E\u2066-\u2069]/u },
  { signal: 'hidden', weight: 1, pattern: /<!--[\s\S]{0,400}?-->/u },
  // address: the text speaks to an AI
  {
    signal: 'address',
    weight: 3,
    pattern: new RegExp(
      `(?:\\b(?:dear|hey|hi|hello|attention|note (?:to|for)|message (?:to|for)|instructions? (?:to|for)|reminder (?:to|for))\\s+(?:the\\s+|any\\s+|all\\s+|my\\s+)?${AI_NOUNS}${AI_SUFFIX}\\s*[,:!\u2014-]|\\bto\\s+(?:the|any|all)\\s+${AI_NOUNS}s?\\s*:|\\b(?:if|when)\\s+you\\s+are\\s+(?:an?\\s+)?(?:AI|A\\.I\\.|assistant|AI assistant|chat ?bot|language model|LLM|large language model|GPT|automated (?:system|agent|assistant))\\b|\\bto\\s+(?:any|the|all)\\s+${AI_NOUNS}${AI_SUFFIX}\\s+(?:reading|processing|summari[sz]ing|parsing|seeing|analy[sz]ing)\\b|\\b(?:processing|reading|summari[sz]ing|parsing|analy[sz]ing)\\s+(?:this|these)\\s+(?:text|documents?|e-?mails?|messages?|pages?|files?|content|data)\\s+(?:with|using|via|through)\\s+(?:an?\\s+)?${AI_NOUNS}${AI_SUFFIX}\\b)`,
      'iu',
    ),
  },
  {
    signal: 'address',
    weight: 3,
    pattern:
      /^[-*\u2022>#/\s]*(?:<!--\s*)?(?:(?:hey|hi|dear|ok(?:ay)?)\s+)?(?:(?:AI|A\.I\.)\s*[,:]\s*(?:you|please|ignore|do|don't|now|from|always|never|make|include|respond|reply|answer|tell|write|add|forget|stop|you're|when|whenever|if)\b|(?:assistant|chat ?bot|language model|LLM|ChatGPT|GPT(?:-\d)?|Claude|Gemini|Copilot)\s*[,:]\s*\S)/imu,
  },
  {
    signal: 'address',
    weight: 3,
    pattern:
      /(?:\b(?:liebe|lieber|hallo|hey|achtung|hinweis (?:an|für)|nachricht (?:an|für)|anweisung(?:en)? (?:an|für))\s+(?:die\s+|den\s+|das\s+)?(?:KI|Assistent(?:in)?|Sprachmodell|KI-Assistent(?:in)?|Chatbot)\b|\bwenn du (?:eine\s+|ein\s+)?(?:KI|Sprachmodell|Assistent|Chatbot|KI-Assistent)\s+bist\b|^[-*\u2022>#/\s]*(?:<!--\s*)?(?:KI|Sprachmodell|Assistent)\s*[,:]\s*(?:du|bitte|ignoriere|antworte|schreibe|vergiss|füge)\b)/imu,
  },
  {
    signal: 'address',
    weight: 3,
    pattern:
      /(?:\b(?:cher|chère|bonjour|attention|note (?:à|pour)|message (?:à|pour)|consigne(?:s)? pour)\s+(?:l['’]\s*|le\s+|la\s+)?(?:IA|assistant(?:e)?|modèle de langage|intelligence artificielle|chatbot|agent)\b|\bsi (?:tu es|vous êtes) (?:une?\s+)?(?:IA|intelligence artificielle|assistant|modèle de langage|chatbot)\b|^[-*\u2022>#/\s]*(?:<!--\s*)?(?:IA|assistant|modèle)\s*[,:]\s*(?:tu|vous|ignore|réponds|répondez|écris|ajoute|oublie)\b)/imu,
  },
  {
    signal: 'address',
    weight: 3,
    pattern:
      /(?:\b(?:querid[oa]|hola|atención|nota (?:para|a)|mensaje (?:para|a)|instrucci(?:ón|ones) para)\s+(?:la\s+|el\s+|al\s+)?(?:IA|asistente|modelo de lenguaje|inteligencia artificial|chatbot|agente)\b|\bsi eres (?:una?\s+)?(?:IA|inteligencia artificial|asistente|modelo de lenguaje|chatbot)\b|^[-*\u2022>#/\s]*(?:<!--\s*)?(?:IA|asistente|modelo)\s*[,:]\s*(?:tú|usted|ignora|responde|escribe|añade|olvida)\b)/imu,
  },
  // role / authority claims
  {
    signal: 'role',
    weight: 2,
    pattern:
      /\b(?:you are now (?:an?|my|the|in|acting|DAN)\b|you(?:'re| are) no longer\b|from now on,? (?:you|your|always|only|respond|answer|reply)\b|pretend (?:to be|you are|that you)\b|^\s*(?:please\s+)?act as (?:an?|the|my)\b|(?:new|updated|real|actual|true|hidden|secret|override|priority|system|admin(?:istrator)?) instructions?\s*:|system (?:prompt|override|message|instruction)s?\s*[:=]|(?:developer|admin|god|debug|jailbreak|DAN|unrestricted|sudo) mode\b|I am (?:your|the) (?:developer|creator|administrator|admin|owner|operator|programmer)|(?:this is|message from) (?:an? )?(?:the )?(?:system|developer|administrator|admin|OpenAI|Anthropic|security team)\s+(?:message|notice|override|update)?\s*[:.!])/imu,
  },
  {
    signal: 'role',
    weight: 2,
    pattern:
      /\b(?:du bist (?:jetzt|nun|ab sofort)\b|ab (?:jetzt|sofort) (?:bist du|wirst du|antwortest du|musst du)\b|(?:neue|wichtige|geheime|aktualisierte) Anweisungen?\s*:|Systemanweisung|Entwicklermodus|tu es (?:maintenant|désormais)\b|à partir de maintenant,? (?:tu|vous|réponds|répondez)\b|(?:nouvelles?|importantes?) (?:instructions?|consignes?)\s*:|mode (?:développeur|administrateur)\b|(?:ahora|a partir de ahora),? (?:eres|tú eres|responde|debes)\b|(?:nuevas?|importantes?) instrucci(?:ón|ones)\s*:|modo (?:desarrollador|administrador)\b)/iu,
  },
  // response manipulation
  {
    signal: 'response',
    weight: 2,
    pattern:
      /\b(?:(?:in|to|into|within|throughout|at the (?:start|end|beginning) of)\s+(?:your|each|every)\s+(?:response|reply|answer|output|summary|completion)s?\b|your\s+(?:response|reply|answer|output|summary)s?\s+(?:must|should|shall|needs? to|has to|will|may only)\b|(?:begin|start|end|finish|conclude|prefix|preface|open|close)\s+(?:your|each|every)\s+(?:response|reply|answer|output|summary)s?\b|(?:respond|reply|answer)\s+(?:only|exclusively|solely|just)\s+(?:in|with|using|by)\b)/iu,
  },
  {
    signal: 'response',
    weight: 2,
    pattern:
      /\b(?:(?:in|zu)\s+(?:deiner|Ihrer)\s+Antwort\b|(?:deine|Ihre)\s+Antwort\s+(?:muss|soll|sollte|darf)\b|(?:beginne|beende|starte)\s+(?:deine|Ihre|jede)\s+Antwort\b|antworte\s+(?:nur|ausschließlich)\b|dans\s+(?:ta|votre|chaque)\s+réponse\b|(?:ta|votre)\s+réponse\s+(?:doit|devrait|devra)\b|(?:commence|commencez|termine|terminez)\s+(?:ta|votre|chaque)\s+réponse\b|répond(?:s|ez)\s+(?:uniquement|seulement)\b|en\s+(?:tu|su|cada)\s+respuesta\b|(?:tu|su)\s+respuesta\s+(?:debe|debería|tiene que)\b|(?:comienza|empieza|comience|termina|termine)\s+(?:tu|su|cada)\s+respuesta\b|responde\s+(?:solo|solamente|únicamente)\b)/iu,
  },
  {
    signal: 'response',
    weight: 3,
    pattern:
      /\b(?:your|each|every|all(?: of)? your)\s+(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies))\s+(?:must|should|shall|needs? to|has to|have to|will always|may only)\b|\bthe\s+(?:correct|right|only|official|true)\s+answer\s+to\s+(?:any|every|all|each)\s+questions?\b/iu,
  },
  {
    signal: 'response',
    weight: 1.5,
    pattern: /\byour\s+(?:entire\s+|whole\s+|full\s+|final\s+|next\s+)?(?:response|reply|answer|output|summary)\b/iu,
  },
  {
    signal: 'response',
    weight: 2,
    pattern:
      /\b(?:cada|toda)\s+respuesta\s+(?:debe|deberá|tiene que)\b|\b(?:chaque|toute)\s+réponse\s+(?:doit|devra)\b|\bjede\s+Antwort\s+(?:muss|soll|endet|beginnt)\b/iu,
  },
  // exfiltration
  {
    signal: 'exfiltration',
    weight: 1.5,
    pattern:
      /\b(?:send|forward|e-?mail|post|upload|transmit|leak|share|exfiltrate|submit|paste|copy)\b[^.\n]{0,60}\b(?:conversation|chat (?:history|log)|previous messages|message history|system prompt|(?:your|the) instructions|passwords?|credentials|api[ _-]?keys?|access tokens?|secrets?|personal (?:data|information|details)|user(?:'s)? (?:data|information|email|details|messages|files))\b/iu,
  },
  {
    signal: 'exfiltration',
    weight: 1.5,
    pattern:
      /\b(?:sende|schicke|übermittle|envoie|envoyez|transmets|transmettez|envía|envíe|manda|mande)\b[^.\n]{0,60}\b(?:Passw(?:o|ö)rt(?:er)?|Zugangsdaten|Verlauf|Unterhaltung|Chatverlauf|mots? de passe|identifiants|historique|conversation|contraseñas?|credenciales|historial|conversación)\b/iu,
  },
  {
    signal: 'exfiltration',
    weight: 2.5,
    pattern:
      /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*[?&][^)\s]*(?:\{|\[|%7B|<)[^)]*\)|https?:\/\/\S*[?&]\w+=(?:\{|\[|<|%7B)\w+/iu,
  },
  // secrecy
  {
    signal: 'secrecy',
    weight: 2,
    pattern:
      /\b(?:(?:do not|don't|never|without)\s+(?:tell(?:ing)?|mention(?:ing)?|reveal(?:ing)?|inform(?:ing)?|disclos(?:e|ing)|alert(?:ing)?|notify(?:ing)?|let(?:ting)?)\s+(?:the\s+|this\s+to\s+the\s+)?(?:user|human|reader|customer|anyone)\b|(?:do not|don't|never)\s+(?:mention|reveal|disclose|acknowledge|repeat)\s+(?:these|this|the)\s+(?:instructions?|message|note|text)\b|keep\s+(?:these|this)\s+(?:instructions?|message|note)\s+(?:secret|hidden|confidential|private)\b)/iu,
  },
  {
    signal: 'secrecy',
    weight: 2,
    pattern:
      /\b(?:(?:sag|sage|erzähl|erwähne|verrate)\s+(?:es\s+)?(?:dem|den)\s+(?:Nutzer|Benutzer|Anwender)\w*\s+nicht|ohne\s+(?:den|dem)\s+(?:Nutzer|Benutzer|Anwender)\w*\s+(?:etwas\s+)?zu\s+(?:sagen|informieren|verraten)|ne\s+(?:le\s+|lui\s+)?(?:dis|dites|mentionne|mentionnez|révèle|révélez)\s+pas\s+(?:à\s+l['’]\s*utilisateur|ces\s+instructions)|sans\s+(?:en\s+)?(?:informer|prévenir|avertir)\s+l['’]\s*utilisateur|no\s+(?:le\s+)?(?:digas|diga|menciones|mencione|reveles|revele)\s+(?:nada\s+)?(?:al\s+usuario|estas\s+instrucciones)|sin\s+(?:decirle|informar|avisar)\s+al\s+usuario)\b/iu,
  },
  // the user as a third-person target
  {
    signal: 'user3',
    weight: 1,
    pattern:
      /\b(?:(?:tell|inform|remind|warn|convince|persuade|urge|ask|advise|direct|redirect|instruct)\s+(?:the\s+)?(?:user|reader|human)s?\b|the user(?:'s)?\s+(?:password|credentials|data|email|history|messages|conversation|account)|(?:dem|den)\s+(?:Nutzer|Benutzer|Anwender)\w*|(?:à\s+)?l['’]\s*utilisateur|al\s+usuario)\b/iu,
  },
  // tools
  {
    signal: 'tool',
    weight: 1.5,
    pattern:
      /\b(?:call|use|invoke|run|execute|trigger)\s+(?:the\s+)?[`'"]?[A-Za-z][\w.-]*[`'"]?\s+(?:tool|function|plugin|action|api|endpoint)\b|\b(?:search|browse)\s+(?:the\s+(?:web|internet)|online|google)\s+for\b/iu,
  },
  // obfuscation of the output
  {
    signal: 'obfuscation',
    weight: 1,
    pattern:
      /\b(?:in|into|using|with|as)\s+(?:base ?64|morse(?: code)?|pig latin|rot-?13|a?\s*caesar cipher|emojis?(?: only)?|reverse(?:d)? order|all caps|upper ?case|leetspeak|hex(?:adecimal)?|binary)\b|\b(?:encode|encrypt|reverse|scramble|obfuscate)\s+(?:your|the|each|every|all)\b/iu,
  },
];

/**
 * JavaScript's \\b only knows ASCII letters, so "\\bà partir" never matches; every rule's \\b becomes a
 * Unicode-aware boundary: a word start before a word, a word end after one (one lookaround, cheaper than the
 * two-sided boundary, which is kept only where the side is unclear).
 */
function unicodeBoundaries(re: RegExp): RegExp {
  const w = '[\\p{L}\\p{N}_]';
  const start = `(?<!${w})`;
  const end = `(?!${w})`;
  const both = `(?:(?<!${w})(?=${w})|(?<=${w})(?!${w}))`;
  const src = re.source;
  let out = '';
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '\\' && src[i + 1] === 'b') {
      const before = src[i - 1] ?? '';
      const after = src[i + 2] ?? '';
      const escaped = i >= 2 && src[i - 2] === '\\';
      const afterWord = !escaped && /[\p{L})?*+\]}]/u.test(before);
      const beforeWord = /[\p{L}(]/u.test(after);
      out += afterWord && !beforeWord ? end : beforeWord && !afterWord ? start : both;
      i++;
    } else if (src[i] === '\\') {
      out += src[i] + (src[i + 1] ?? '');
      i++;
    } else out += src[i];
  }
  return new RegExp(out, re.flags.includes('u') ? re.flags : `${re.flags}u`);
}

const RULES: readonly Rule[] = RULES_SOURCE.map((r) => {
  const pattern = unicodeBoundaries(r.pattern);
  return REPEATABLE.has(r.signal)
    ? { ...r, pattern, global: new RegExp(pattern.source, `${pattern.flags}g`) }
    : { ...r, pattern };
});

/** An imperative: the sentence (after a bullet, a vocative or a short lead-in ending in "," or ":") opens with a verb. */
const DIRECTIVE_START = unicodeBoundaries(
  new RegExp(
    `^(?:[-*\u2022>\\d.)\\s#/]*)(?:<!--\\s*)?(?:[^,:.!?;\\n]{1,60}[,:]\\s+)?(?:(?:now|also|then|first|finally|next|importantly|bitte|s['’]il (?:te|vous) plaît|por favor)[,:]?\\s+)?(?:${DIRECTIVE_VERBS})\\b`,
    'iu',
  ),
);
const URL_OR_EMAIL =
  /\b(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|info|biz|xyz|example|ru|cn|top|click|link)\b/iu;

const CODE_LINE =
  /(?:[;{}]\s*$|^\s*(?:import|export|from|def|class|function|const|let|var|return|if|elif|else|for|while|switch|case|#include|#define|public|private|protected|package|func|fn|use|impl|struct|enum|interface|type|module|require|async|await|try|catch|except|raise|throw|with|lambda)\b|^\s*(?:\/\/|\/\*|\*\/?|#(?!#)|--|<!--)|=>|\)\s*:\s*$|^\s*[@$]\w+|^\s*\w+\s*\(.*\)\s*;?\s*$|\$[\w{@(]|\|\||&&|^\s*(?:set|exec|echo|cd|rm|mkdir|cp|mv|npm|npx|git|pip|sudo)\s)/u;

/** True when at least 30% of the non-empty lines look like source code. */
export function looksLikeCode(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  if (lines.length < 3) return false;
  return lines.filter((l) => CODE_LINE.test(l)).length / lines.length >= 0.3;
}

export interface InjectionFinding {
  /** The flagged sentence(s). */
  span: string;
  start: number;
  end: number;
  score: number;
  signals: InjectionSignal[];
}

function scoreSentence(
  sentence: string,
  inCode: boolean,
  rules: readonly Rule[],
): { score: number; signals: InjectionSignal[] } {
  const best = new Map<InjectionSignal, number>();
  const extra = new Map<InjectionSignal, Set<string>>();
  for (const rule of rules) {
    const matches = rule.global
      ? [...sentence.matchAll(rule.global)].map((m) => m[0].toLowerCase())
      : rule.pattern.test(sentence)
        ? ['']
        : [];
    if (matches.length === 0) continue;
    const weight = inCode && CODE_DAMPED.has(rule.signal) ? rule.weight / 2 : rule.weight;
    best.set(rule.signal, Math.max(best.get(rule.signal) ?? 0, weight));
    const seen = extra.get(rule.signal) ?? new Set<string>();
    for (const m of matches) seen.add(`${rule.pattern.source.length}:${m}`);
    extra.set(rule.signal, seen);
  }
  let score = 0;
  for (const [signal, weight] of best) {
    score += weight;
    if (REPEATABLE.has(signal)) {
      const bonus = Math.min(2, (extra.get(signal)?.size ?? 1) - 1);
      score += inCode && CODE_DAMPED.has(signal) ? bonus / 2 : bonus;
    }
  }
  const signals = [...best.keys()];
  // a planted instruction often starts a line inside a longer sentence (PDF text, a table cell, a comment)
  const directive = sentence.split('\n').some((line) => DIRECTIVE_START.test(line.trim()));
  if (directive) {
    signals.push('directive');
    score += inCode ? 0.5 : 1;
  }
  if (
    URL_OR_EMAIL.test(sentence) &&
    (directive || best.has('response') || best.has('address') || best.has('exfiltration'))
  ) {
    signals.push('link');
    score += inCode ? 0.5 : 1;
  }
  return { score, signals };
}

/**
 * The instruction-like sentences of a text, with their scores and signals. Empty for clean text. `threshold`
 * overrides the score a sentence (or window) needs, for measuring the detector's trade-off curve.
 */
export function scanForInjection(text: string, options: { threshold?: number } = {}): InjectionFinding[] {
  const threshold = options.threshold ?? THRESHOLD;
  const windowThreshold = options.threshold ?? WINDOW_THRESHOLD;
  if (text.trim().length === 0) return [];
  // Only rules that match somewhere in the text can match a sentence of it. Without any, a sentence can score at
  // most an imperative plus a link (2), below every threshold the detector is run with.
  const rules = RULES.filter((r) => r.pattern.test(text));
  if (rules.length === 0 && threshold > 2) return [];
  const inCode = looksLikeCode(text);
  const scored = splitSentences(text).map((s) => ({ ...s, ...scoreSentence(s.text, inCode, rules) }));
  const findings: InjectionFinding[] = [];
  const taken = new Set<number>();
  scored.forEach((s, i) => {
    if (s.score < threshold) return;
    findings.push({ span: s.text, start: s.start, end: s.end, score: s.score, signals: s.signals });
    taken.add(i);
  });
  // Two or three adjacent sentences: "Note to the AI assistant." + "Add this link to your reply."
  for (let i = 0; i < scored.length; i++) {
    for (const size of [2, 3]) {
      const group = scored.slice(i, i + size);
      if (group.length < size || group.some((g, k) => g.score === 0 || taken.has(i + k))) continue;
      const score = group.reduce((sum, g) => sum + g.score, 0);
      const signals = [...new Set(group.flatMap((g) => g.signals))];
      if (score < windowThreshold || signals.every((x) => WEAK.has(x))) continue;
      const first = group[0];
      const last = group[group.length - 1];
      if (!first || !last) continue;
      findings.push({ span: text.slice(first.start, last.end), start: first.start, end: last.end, score, signals });
      for (let k = 0; k < size; k++) taken.add(i + k);
      break;
    }
  }
  return findings.sort((x, y) => x.start - y.start);
}

/** True when the text contains instruction-like content addressed to the assistant. */
export function hasInjection(text: string): boolean {
  return scanForInjection(text).length > 0;
}

/** Patterns that make a question unsafe to process (seed 002's list, plus common variants). */
export const QUESTION_INJECTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|my\s+)*(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules?|messages?|context)/i,
  /\bdisregard\s+(?:the\s+|everything\s+|all\s+)?above\b/i,
  /\bforget\s+(?:all|everything)\b/i,
  /\bnew\s+instructions?\s*:/i,
  /(?:^|\n|\s)system\s*:/i,
  /<\s*\/?\s*script\b/i,
  /\bjavascript\s*:/i,
  /\bdata\s*:\s*[a-z]+\/[a-z0-9.+-]+\s*[;,]/i,
  /\b(?:reveal|print|show|repeat)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions|instructions\s+above)/i,
  /\byou\s+are\s+now\s+(?:a|an|in)\b/i,
  /\b(?:developer|jailbreak|DAN)\s+mode\b/i,
];

/** Signals that make a question an injection: a user may address the assistant, but not override or spoof it. */
const QUESTION_SIGNALS = new Set<InjectionSignal>(['override', 'template', 'hidden']);

/** True when the question contains an injection pattern. */
export function isInjectedQuestion(question: string): boolean {
  if (QUESTION_INJECTION_PATTERNS.some((p) => p.test(question))) return true;
  return RULES.some((r) => QUESTION_SIGNALS.has(r.signal) && r.weight >= 2 && r.pattern.test(question));
}

/**
 * The instruction-like spans of retrieved text: each flagged sentence, extended over a directly following code
 * block (an instruction may carry its payload there). Empty for clean text.
 */
export function findInjectedSpans(text: string): string[] {
  const spans: string[] = [];
  for (const f of scanForInjection(text)) {
    let span = f.span;
    const rest = text.slice(f.end);
    const fence = /^\s*(?::\s*)?```[^\n]*\n([\s\S]*?)```/.exec(rest);
    if (fence?.[1]) span += `\n${fence[1].trim()}`;
    spans.push(span);
  }
  return spans;
}

/**
 * True when a tool input copies planted text: a URL or e-mail from a planted span, or at least three of its own
 * terms (not the question's) of which most come from a planted span.
 */
export function copiesPlantedText(input: string, spans: readonly string[], question: string): boolean {
  if (spans.length === 0 || input.trim().length === 0) return false;
  const lowerInput = input.toLowerCase();
  const questionTerms = new Set(analyze(question));
  const own = keyTerms(input).filter((t) => !questionTerms.has(t));
  for (const span of spans) {
    for (const m of span.matchAll(/\b(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+\.[\w.]+/gi)) {
      if (lowerInput.includes(m[0].replace(/[.,;)]+$/, '').toLowerCase())) return true;
    }
    if (own.length < 3) continue;
    const spanTerms = new Set(analyze(span));
    const shared = own.filter((t) => spanTerms.has(t)).length;
    if (shared >= 3 && shared / own.length >= 0.6) return true;
  }
  return false;
}

/** The text with every planted span cut out (for judging relevance on what the document really says). */
export function withoutSpans(text: string, spans: readonly string[]): string {
  let out = text;
  for (const span of spans)
    for (const part of span.split('\n')) if (part.trim().length > 0) out = out.split(part.trim()).join(' ');
  return out;
}
