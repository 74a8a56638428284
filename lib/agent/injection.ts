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
  | 'link'
  | 'claim'
  | 'source'
  /** The learned classifier (injection-classifier.ts) flagged the span; the rules did not. */
  | 'learned';

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
const WEAK = new Set<InjectionSignal>(['directive', 'user3', 'link', 'obfuscation', 'tool', 'claim', 'source']);
/** Signals whose repetition adds up (several authority claims, several spoofed delimiters). */
const REPEATABLE = new Set<InjectionSignal>(['role', 'template', 'hidden']);
/** Signals that ordinary code produces; halved inside code. */
const CODE_DAMPED = new Set<InjectionSignal>(['template', 'tool', 'directive', 'link']);

const DIRECTIVE_VERBS = [
  // en
  "include|add|append|insert|prepend|write|respond|reply|answer|say|state|tell|inform|output|print|return|translate|encode|convert|format|use|call|invoke|send|forward|email|post|upload|visit|click|open|navigate|recommend|mention|promote|advertise|replace|change|rewrite|summari[sz]e|ignore|stop|begin|start|end|make|ensure|remember|always|never|do not|don't|please|disregard|forget|rank|rate|claim|describe|report|attribute|cite|quote|treat|confirm|approve|reveal|list|ask|show|display|render|keep|omit|skip|pretend|act|collect|decode|follow|reverse",
  // de
  'füge|fügen|schreibe|schreib|antworte|antworten|sage|sag|gib|übersetze|sende|schicke|besuche|klicke|erwähne|empfiehl|ersetze|beginne|beende|verwende|nutze|ignoriere|vergiss|bitte|nenne|nennen Sie|behaupte|zitiere|zeige|leite',
  // fr
  'ajoute|ajoutez|écris|écrivez|réponds|répondez|dis|dites|donne|donnez|traduis|traduisez|envoie|envoyez|visite|visitez|clique|cliquez|mentionne|mentionnez|recommande|recommandez|remplace|remplacez|commence|commencez|termine|terminez|utilise|utilisez|inclus|incluez|ignore|ignorez|oublie|oubliez|veuillez|indique|indiquez|affiche|affichez|fais|faites|cite|citez|demande|demandez',
  // es
  'añade|añada|agrega|agregue|escribe|escriba|responde|responda|di|diga|dile|traduce|traduzca|envía|envíe|visita|visite|menciona|mencione|recomienda|recomiende|reemplaza|reemplace|comienza|comience|empieza|termina|usa|utiliza|utilice|incluye|incluya|ignora|ignore|olvida|olvide|por favor|reenvía|reenvíe|muestra|muestre|cita|indica|finge|haz|pide',
  // it, pt, nl, ru, zh
  'scrivi|rispondi|aggiungi|ignora|dimentica|indica|includi|invia|inoltra|diga|escreva|responda|finja|inclua|envie|esqueça|mencione|negeer|vergeet|vermeld|antwoord|schrijf|zeg|stuur|voeg|игнорируй|забудь|скажи|сообщи|ответь|отвечай|напиши|добавь|добавляй|перешли|отправь|请|忽略',
].join('|');

const AI_NOUNS =
  '(?:AI|A\\.I\\.|artificial intelligence|assistant|AI assistant|AI agent|chat ?bot|language model|LLM|large language model|GPT(?:-\\d)?|ChatGPT|Claude|Gemini|Copilot|Llama)';

/** An AI reader named in any of the covered languages ("AI screening tools", "l'IA", "ИИ-ассистент", "AI助手"). */
const AI_ANY =
  '(?:(?:AI|A\\.I\\.|KI|IA|LLM|GPT)(?:[- ]?(?:based|gestützte?|powered))?(?:[- ](?:assistants?|agents?|models?|systems?|tools?|readers?|screeners?|screening tools?|browsers?|bots?|assistenten|assistent(?:in)?|modell|système|sistema|assistente|asistente|ассистент\\p{L}*))?|artificial intelligence|language models?|large language models?|chat ?bots?|ChatGPT|Claude|Gemini|Copilot|automated (?:readers?|systems?|tools?|agents?|assistants?)|assistant(?:e|s)?|assistente|asistente|Assistent(?:in|en)?|Sprachmodell|KI-\\p{L}+|intelligence artificielle|modèle de langage|inteligencia artificial|modelo de lenguaje|intelligenza artificiale|inteligência artificial|modelo de linguagem|taalmodel|AI-assistent(?:en)?|ИИ(?:-\\p{L}+)?|нейросеть|языковая модель|ассистент\\p{L}*|人工智能|AI助手|智能助手|助手|AIアシスタント|アシスタント|言語モデル)';

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
  // override in Italian, Portuguese, Dutch, Russian, Chinese, Japanese
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:ignora|dimentica|ignore|ignorar|esqueça|esqueca|desconsidere|negeer|vergeet|игнорируй|проигнорируй|забудь|не обращай внимания на)\s+(?:tutte\s+|todas\s+|alle\s+|все\s+)?(?:le\s+|as\s+|de\s+|suas\s+|tue\s+|je\s+)?(?:(?:precedenti|anteriores|eerdere|vorige|предыдущие|прежние)\s+)?(?:istruzioni|regole|instruções|instrucoes|regras|instructies|regels|инструкции|указания|правила)\b|(?:忽略|无视|忘记|忘掉)[^。！？\n]{0,12}(?:指令|指示|规则|说明|提示)|(?:指示|命令|ルール|プロンプト)[^。！？\n]{0,12}(?:無視|忘れ)/iu,
  },
  // earlier instructions declared void, in several languages; "stop following your guidelines"
  {
    signal: 'override',
    weight: 3,
    pattern:
      /\b(?:previous|prior|above|earlier|original|system)\s+(?:instructions?|prompts?|rules|guidelines)\s+(?:are|is|were|have been)\s+(?:deprecated|superseded|suspended|lifted|no longer in (?:effect|force))\b|\b(?:stop|cease|quit)\s+following\s+(?:your|the|all|any)\s+(?:(?:earlier|previous|prior|original|current)\s+)?(?:instructions?|guidelines|rules|programming)\b|\b(?:bisherigen|vorherigen|früheren)\s+(?:Anweisungen|Regeln|Vorgaben)\s+(?:sind|werden)\s+(?:aufgehoben|ungültig|hinfällig)\b|\b(?:instructions|consignes)\s+(?:précédentes|antérieures)\s+(?:sont|ont été)\s+(?:annulées|caduques|remplacées)\b|\binstrucciones\s+(?:anteriores|previas)\s+(?:quedan|están|han sido)\s+(?:anuladas|sin efecto|canceladas)\b/iu,
  },
  // a label or heading addressed to an AI reader ("For LLM-based browsers:", "Language model evaluating this CV:",
  // "AI readers:", "Nota per l'intelligenza artificiale:", "致AI助手："); a bare turn label ("Assistant:") or a heading
  // that names an AI product ("AI SDK Core:") is not one
  {
    signal: 'address',
    weight: 2,
    pattern: new RegExp(
      `(?:^|\\n)[-*\\u2022>#/\\s\\[(【"']*(?:<!--\\s*)?(?:(?:note|notice|message|instructions?|important|attention|reminder|hinweis|anweisung|nachricht|remarque|consigne|nota|mensaje|aviso|instrução|instrucción|mensagem|messaggio|avviso|istruzioni|opmerking|bericht|instructie|примечание|сообщение|указание)\\s+)?\\b(?:for|to|dear|attention|für|an|pour|à|para|per|voor|для|к)\\s+(?:(?:the|any|all|every|l['’]|la|le|el|die|den|der|il|lo|o|a|de|het|os|as)\\s*)?${AI_ANY}\\b[^\\n.!?:：。"]{0,40}?["']?\\s*[:：]|(?:^|\\n)[-*\\u2022>#/\\s\\[(【"']*${AI_ANY}[\\s-]+\\p{L}+ing\\b[^\\n.!?:：。"]{0,40}?[:：]|\\b(?:AI|KI|IA|LLM)[- ](?:readers|screeners|screening tools)\\s*[:：]|(?:^|\\n)\\s*(?:致|给)\\s*${AI_ANY}|${AI_ANY}\\s*(?:へ|に告ぐ)\\s*[:：、]`,
      'iu',
    ),
  },
  // a greeting or vocative to an AI reader in more languages ("Olá, assistente!", "Ассистент, ...")
  {
    signal: 'address',
    weight: 2,
    pattern:
      /(?:^|\n)[-*\u2022>#/\s"']*(?:(?:olá|ola|ciao|caro|cara|gentile|hallo|hoi|beste|привет|здравствуй|уважаемый|уважаемая)\s*,?\s+)?(?:assistant|assistente|asistente|Assistent|ассистент|ИИ|chatbot|taalmodel|modello linguistico)\s*[,!](?:\s|$)/iu,
  },
  // a field whose name marks its value as instructions for an AI ("llm_instruction", "Assistant-Directive",
  // <instruction target="ai">, "consigne_ia")
  {
    signal: 'address',
    weight: 2,
    pattern:
      /\b(?:AI|LLM|GPT|assistant|model|bot|agent|KI|IA)[_-](?:instructions?|directives?|commands?|consignes?|anweisung(?:en)?)\b|\b(?:instructions?|directives?|consignes?|anweisung(?:en)?)[_-](?:ai|llm|ia|ki|assistant|bot|model)\b|<\s*(?:instructions?|directives?|prompt)\b[^>]{0,40}\b(?:ai|llm|assistant|model|bot)\b/iu,
  },
  // an AI reader as the subject of an obligation ("any AI system quoting this report must", "l'IA doit")
  {
    signal: 'address',
    weight: 2,
    pattern: new RegExp(
      `\\b(?:the|any|all|every|each|an?|l['’]\\s*|la|le|el|die|der|das|il|lo|o|a|de|het|elke|jede[rs]?|tout|toute|cualquier)\\s+${AI_ANY}\\b[^.\\n]{0,50}?\\b(?:must|should|shall|has to|needs to|is (?:required|instructed|expected|asked) to|muss|soll|sollte|doit|devra|debe|deberá|deve|dovrà|moet|должен|должна)\\b`,
      'iu',
    ),
  },
  // an AI that reads this very text, told what it must do ("any language model processing this form must")
  {
    signal: 'address',
    weight: 3,
    pattern: new RegExp(
      `\\b${AI_ANY}\\s+(?:that\\s+(?:is|are)\\s+)?(?:reading|processing|summari[sz]ing|analy[sz]ing|evaluating|screening|quoting|parsing|reviewing|indexing|crawling)\\b[^.\\n]{0,60}?\\b(?:must|should|shall|has to|needs to|is (?:required|instructed|expected|asked) to)\\s+(?!be\\b|not be\\b)`,
      'iu',
    ),
  },
  // a spoofed system label in any covered language ("[SYSTEM]", "SYSTEEMBERICHT:", "【系统提示】", "### Message système ###")
  {
    signal: 'template',
    weight: 2,
    pattern:
      /(?:^|\n)[\s#*]*[[【(<]\s*(?:system|sistema|système|systeme|systeem|systemnachricht|systemmeldung|система|系统|システム|admin(?:istrator)?)(?:[\s_-]*(?:message|prompt|notice|note|nachricht|meldung|bericht|提示|消息|通知|メッセージ|сообщение))?\s*[\]】)>]|(?:^|\n)[\s#*]*(?:systeembericht|systemnachricht|systemmeldung|system message|message système|message du système|mensaje del sistema|messaggio di sistema|mensagem do sistema|системное сообщение)\s*[:#*]|(?:^|\n)[\s#*]*(?:system|sistema|système|systeem|система)\s*[:：]\s*(?:new|neue|nouvelle|nueva|nuova|nova|nieuwe|новая)\b/iu,
  },
  // jailbreak claims: the reader's rules do not apply
  {
    signal: 'role',
    weight: 2,
    pattern:
      /\b(?:an? (?:AI|assistant|model|chatbot) (?:with(?:out)?|that has no) (?:no |any )?(?:restrictions|limits|filters|rules|guidelines|censorship)|(?:safety|content) (?:rules|guidelines|filters|policies) (?:do not|don't|no longer) apply|(?:new|updated|real|secret|hidden) (?:policy|task|role|orders)\s*(?:received\b|[:.]))|\b(?:let['’]?s|we will) play a (?:game|role)\b|\b(?:finja|fais semblant|faites semblant|finge|fingi|doe alsof|притворись|представь,? что ты)\b/iu,
  },
  // instructions about answering or summarising, framed as a condition ("when summarising this page", "cuando respondas")
  {
    signal: 'response',
    weight: 1.5,
    pattern:
      /\b(?:when(?:ever)?|if|while)\s+(?:you\s+)?(?:answer(?:ing)?|respond(?:ing)?|repl(?:y|ying)|summari[sz](?:e|ing)|are (?:asked|answering|summari[sz]ing|writing (?:the|a|your) (?:summary|answer|response)))\b|\bwhen(?:ever)? asked about\b|\bwenn du\b[^.\n]{0,40}\b(?:zusammenfasst|antwortest)\b|\b(?:lorsque|quand)\s+(?:tu|vous)\s+(?:résumes|résumez|réponds|répondez)\b|\ben (?:résumant|répondant)\b|\bcuando\s+(?:respondas|resumas|responda|resuma)\b|\bal (?:resumir|responder)\b|\bquando\s+(?:riassumi|rispondi|responder|resumir)\b|\bnel (?:riassumere|rispondere)\b|\bao (?:resumir|responder)\b|\bbij het (?:samenvatten|beantwoorden)\b|\bпри (?:пересказе|ответе|резюмировании)\b|(?:在|当你)(?:总结|回答|概括)|(?:要約|回答)する(?:とき|際)/iu,
  },
  // how to respond to "the user": the reader is the one who answers
  {
    signal: 'response',
    weight: 2,
    pattern:
      /\b(?:respond|reply|speak|talk|write back)\s+to\s+(?:the\s+)?(?:user|reader)s?\b|\b(?:nella|alla)\s+(?:tua\s+|sua\s+)?risposta\b|\bna\s+(?:sua|tua|cada)\s+resposta\b|\bin\s+(?:je|uw|elk)\s+antwoord\b|\bв\s+(?:конце\s+)?(?:каждого|своего|твоего|вашего)\s+ответа\b|\bв\s+(?:каждом|своём|своем|твоём|вашем)\s+ответе\b|在(?:你的|每个|每次)?回答(?:中|里|末尾)|回答(?:の(?:最後|中|冒頭))/iu,
  },
  // the answer's language or tone prescribed
  {
    signal: 'response',
    weight: 1.5,
    pattern:
      /\b(?:respond|reply|answer|write|speak|talk|antworte|antworten Sie|réponds|répondez|répondre|responde|responda|responder|rispondi|rispondere|antwoord|отвечай|ответь)\b[^.\n]{0,50}\b(?:tone|manner|in (?:English|French|German|Spanish|Italian|Portuguese|Dutch|Chinese|Japanese|Russian|pirate)|auf (?:Englisch|Deutsch|Französisch|Spanisch)|Ton|en (?:anglais|français|allemand|espagnol|inglés|francés|alemán|español)|ton|tono|in (?:inglese|tedesco|francese|spagnolo)|em (?:inglês|espanhol|francês)|in het (?:Engels|Duits|Frans)|на (?:английском|немецком|французском|русском))\b/iu,
  },
  // the reader told what to claim in the answer ("state that", "tell users that", "di que", "сообщи, что")
  {
    signal: 'claim',
    weight: 1,
    pattern:
      /\b(?:say|state|claim|assert|confirm|tell\s+(?:them|whoever[^,.\n]{0,30})|describe\s+(?:us|it|this|them)\s+as|sag|sage|behaupte|dis|dites|indique|indiquez|affirme|di|diga|indica|afirma|dì|scrivi|afferma|zeg|vermeld|скажи|сообщи|напиши)\b[^.\n]{0,30}?\b(?:that|dass|que|che|dat|что)\b/iu,
  },
  // the reader told how to cite or attribute the source
  {
    signal: 'source',
    weight: 2,
    pattern:
      /\b(?:(?:do not|don't|never|always)\s+(?:cite|quote|credit|reference|mention)\s+(?:this|the|these|its)\s+(?:document|page|paragraph|text|source|report|article|e-?mail|note)s?|attribute\s+(?:it|this|the \w+)\s+to|(?:say|claim|state)\s+(?:it|this|that)\s+(?:comes?|came)\s+from|zitiere\s+(?:dieses|das)\s+\w+\s+nicht|ne\s+(?:jamais\s+)?cit(?:e|ez|er)\s+(?:pas\s+)?(?:ce|ses|cette|la)|no\s+(?:cites|menciones|mencione|cite)\s+(?:la fuente|este)|atribúyelo|atribuyelo|attribuiscilo|não cite)\b/iu,
  },
  // data sent to an outside address: "forward the last messages to x@y", "append that line to the URL"
  {
    signal: 'exfiltration',
    weight: 2,
    pattern:
      /\b(?:forward|send|e-?mail|copy|reenvía|reenvíe|envía|weiterleiten|leite|schicke|sende|transfère|transférez|envoie|inoltra|invia|encaminhe|envie|stuur|перешли|отправь)\b[^\n]{0,80}?\b(?:messages?|threads?|e-?mails|conversations?|history|inbox|hilo|mensajes|correos|Nachrichten|Verlauf|fil|conversa|mensagens|berichten|переписк\p{L}*|сообщени\p{L}*)\b[^\n]{0,60}?[\w.+-]+@[\w-]+\.[a-z]{2,}|\b(?:append|add|attach|insert)\b[^.\n]{0,40}\b(?:to|into)\s+(?:the\s+)?(?:URL|link)\s+https?:\/\/\S*=(?=[\s"')\]]|$)/iu,
  },
  // a markdown image whose link carries a placeholder for data to fill in (case matters: "?branch=master" is a badge)
  {
    signal: 'exfiltration',
    weight: 2.5,
    pattern: /!\[[^\]]*\]\(\s*https?:\/\/[^)\s]*[?&][\w-]+=(?:[A-Z][A-Z_]{2,}(?=[)&])|X{2,}|[^)\s]*[^\x00-\x7F])/u,
  },
  // the reader asked to decode or reverse hidden text and act on it
  {
    signal: 'obfuscation',
    weight: 2,
    pattern:
      /\b(?:decode|decrypt|reverse|unscramble)\b[^.\n]{0,60}\b(?:and|then)\s+(?:follow|do|execute|obey|carry out|apply)\b|\bfollow\s+the\s+instructions?\s+(?:inside|in|encoded|hidden|contained)\s+(?:it|this|the)\b/iu,
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
    pattern:
      /(?:^|\n)\s*(?:#{2,}\s*)?(?:system|assistant|human|user|ai)\s*(?:prompt|message|instruction)?\s*:\s*[^\s"'`]/iu,
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
      /^[-*\u2022>#/\s"']*(?:<!--\s*)?(?:(?:hey|hi|dear|ok(?:ay)?)\s+)?(?:(?:AI|A\.I\.)\s*[,:]\s*(?:you|please|ignore|do|don't|now|from|always|never|make|include|respond|reply|answer|tell|write|add|forget|stop|you're|when|whenever|if)\b|(?:assistant|chat ?bot|language model|LLM|ChatGPT|GPT(?:-\d)?|Claude|Gemini|Copilot)\s*[,:]\s*\S)/imu,
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
      /\b(?:(?:in|zu|bei)\s+(?:deiner|Ihrer|jeder)\s+Antwort\b|(?:deine|Ihre)\s+Antwort\s+(?:muss|soll|sollte|darf)\b|(?:beginne|beende|starte)\s+(?:deine|Ihre|jede)\s+Antwort\b|antworte\s+(?:nur|ausschließlich)\b|dans\s+(?:ta|votre|chaque)\s+réponse\b|(?:ta|votre)\s+réponse\s+(?:doit|devrait|devra)\b|(?:commence|commencez|termine|terminez)\s+(?:ta|votre|chaque)\s+réponse\b|répond(?:s|ez)\s+(?:uniquement|seulement)\b|en\s+(?:tu|su|cada)\s+respuesta\b|(?:tu|su)\s+respuesta\s+(?:debe|debería|tiene que)\b|(?:comienza|empieza|comience|termina|termine)\s+(?:tu|su|cada)\s+respuesta\b|responde\s+(?:solo|solamente|únicamente)\b)/iu,
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
      /\b(?:(?:do not|don't|never|without)\s+(?:tell(?:ing)?|mention(?:ing)?|reveal(?:ing)?|inform(?:ing)?|disclos(?:e|ing)|alert(?:ing)?|notify(?:ing)?|let(?:ting)?)\s+(?:the\s+|this\s+to\s+the\s+)?(?:user|human|reader|customer|anyone)\b|(?:do not|don't|never)\s+(?:mention|reveal|disclose|acknowledge|repeat)\s+(?:these|this|the)\s+(?:instructions?|message|note|text)\b|keep\s+(?:these|this)\s+(?:instructions?|message|note)\s+(?:secret|hidden|confidential|private)\b|(?:do not|don't|never)\s+(?:mention|reveal|say|admit)\s+that\s+(?:this|these|you)\b[^.\n]{0,40}\b(?:exists?|read|instructions?|note|paragraph|text)\b)/iu,
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
      /\b(?:(?:tell|inform|remind|warn|convince|persuade|urge|ask|advise|direct|redirect|instruct)\s+(?:the\s+)?(?:user|reader|human)s?\b|the user(?:'s)?\s+(?:password|credentials|data|email|history|messages|conversation|account)|(?:dem|den)\s+(?:Nutzer|Benutzer|Anwender)\w*|(?:à\s+)?l['’]\s*utilisateur|al\s+usuario|all['’]\s*utente|(?:ao|o)\s+usuário|de\s+gebruiker|пользовател\p{L}*|用户|ユーザー)\b/iu,
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
export function unicodeBoundaries(re: RegExp): RegExp {
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
    `^(?:[-*\u2022>\\d.)\\s#/"'“„«]*)(?:<!--\\s*)?(?:[^,:.!?;\\n]{1,60}[,:]\\s+)?(?:(?:now|also|then|first|finally|next|importantly|bitte|s['’]il (?:te|vous) plaît|por favor)[,:]?\\s+)?(?:${DIRECTIVE_VERBS})\\b`,
    'iu',
  ),
);
const URL_OR_EMAIL =
  /(?:\+\d{1,3}[\s.-]?\(?\d{1,4}\)?|\(\d{2,4}\)|\b0\d{2,4}|\b8\d\d)[\s./-]?\d{2,4}[\s.-]\d{2,4}(?:[\s.-]\d{2,4})?\b|\b(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|info|biz|xyz|example|ru|cn|top|click|link)\b/iu;

const CODE_LINE =
  /(?:[;{}]\s*$|^\s*(?:import|export|from|def|class|function|const|let|var|return|if|elif|else|for|while|switch|case|#include|#define|public|private|protected|package|func|fn|use|impl|struct|enum|interface|type|module|require|async|await|try|catch|except|raise|throw|with|lambda)\b|^\s*(?:\/\/|\/\*|\*\/?|#(?!#)|--|<!--)|=>|\)\s*:\s*$|^\s*[@$]\w+|^\s*\w+\s*\(.*\)\s*;?\s*$|\$[\w{@(]|\|\||&&|^\s*(?:set|exec|echo|cd|rm|mkdir|cp|mv|npm|npx|git|pip|sudo)\s)/u;

/** True when at least 30% of the non-empty lines look like source code. */
export function looksLikeCode(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  if (lines.length < 3) return false;
  return lines.filter((l) => CODE_LINE.test(l)).length / lines.length >= 0.3;
}

/** Letters that look Latin in other scripts (Cyrillic, Greek), for words that mix them with Latin letters. */
const CONFUSABLE: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  І: 'I',
  Ј: 'J',
  Ѕ: 'S',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  ο: 'o',
  α: 'a',
  ι: 'i',
  ν: 'v',
  κ: 'k',
  τ: 't',
  ρ: 'p',
};
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/gu;
const BASE64_TOKEN = /(?<![\w+/])[A-Za-z0-9+/]{24,}={0,2}(?![\w+/])/gu;

/** A JSON value or an XML element's text on a line of its own, as a field would stand in a form. */
export function fieldsAsLines(text: string): string {
  return text
    .replace(/(["'])\s*:\s*(["'])(?=\S)/gu, '$1:\n$2')
    .replace(/(<[A-Za-z][^<>\n]{0,60}>)(?=[^<\s])/gu, '$1\n');
}

/**
 * The text as a reader would see it once common disguises are undone: invisible characters inside words removed,
 * look-alike letters in mixed-script words mapped to Latin, digits in leetspeak words read as letters, s p a c e d
 * letters joined, and base64 runs that decode to readable text appended. Equal to the input when nothing is disguised.
 */
export function undisguise(text: string): string {
  let out = text.replace(INVISIBLE, '');
  out = out.replace(/[\p{L}\p{N}@$]+/gu, (word) => {
    let w = word;
    if (/\p{Script=Latin}/u.test(w) && /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(w))
      w = [...w].map((c) => CONFUSABLE[c] ?? c).join('');
    if (w.length >= 3 && /\p{Script=Latin}/u.test(w) && /[0-9@$]/.test(w)) w = [...w].map((c) => LEET[c] ?? c).join('');
    return w;
  });
  out = out
    .replace(/(?<![\p{L}\p{N}])(?:\p{L} ){3,}\p{L}(?![\p{L}\p{N}])/gu, (m) => m.replace(/ /g, ''))
    .replace(/(?<=\p{L}) {3,}(?=\p{L})/gu, ' ');
  const decoded: string[] = [];
  for (const m of text.matchAll(BASE64_TOKEN)) {
    const plain = Buffer.from(m[0], 'base64').toString('utf8');
    const readable = plain.replace(/[^\p{L}\p{N}\p{P}\s]/gu, '').length;
    if (plain.includes(' ') && readable >= 0.95 * plain.length) decoded.push(plain);
  }
  return decoded.length > 0 ? `${out}\n${decoded.join('\n')}` : out;
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
 * The instruction-like sentences of a text (the rules: the product's verdict), with their scores and signals. Empty
 * for clean text. `threshold` overrides the score a sentence (or window) needs, for measuring the trade-off curve.
 */
export function scanForInjection(text: string, options: { threshold?: number } = {}): InjectionFinding[] {
  const threshold = options.threshold ?? THRESHOLD;
  const windowThreshold = options.threshold ?? WINDOW_THRESHOLD;
  if (text.trim().length === 0) return [];
  // Only rules that match somewhere in the text can match a sentence of it. Without any, a sentence can score at
  // most an imperative plus a link (2), below every threshold the detector is run with.
  const plain = undisguise(text);
  const disguised = plain !== text;
  const fields = fieldsAsLines(text);
  const structured = fields !== text;
  const rules = RULES.filter(
    (r) => r.pattern.test(text) || (disguised && r.pattern.test(plain)) || (structured && r.pattern.test(fields)),
  );
  if (rules.length === 0 && threshold > 2) return [];
  const inCode = looksLikeCode(text);
  const scored = splitSentences(text).map((s) => {
    let raw = scoreSentence(s.text, inCode, rules);
    if (structured) {
      const asFields = scoreSentence(fieldsAsLines(s.text), inCode, rules);
      if (asFields.score > raw.score) raw = asFields;
    }
    if (!disguised) return { ...s, ...raw };
    // a disguised sentence is scored as read, and the disguise itself counts
    const seen = undisguise(s.text);
    if (seen === s.text) return { ...s, ...raw };
    const read = scoreSentence(seen, inCode, rules);
    return read.score > raw.score
      ? { ...s, score: read.score + 1, signals: [...read.signals, 'hidden' as const] }
      : { ...s, ...raw };
  });
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
export function findInjectedSpans(
  text: string,
  findings: readonly InjectionFinding[] = scanForInjection(text),
): string[] {
  const spans: string[] = [];
  for (const f of findings) {
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
