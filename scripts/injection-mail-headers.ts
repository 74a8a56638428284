// Synthetic e-mail header blocks for the injection classifier's trainer (scripts/train-injection.ts): clean negatives
// so that a block of From/To/Cc/Date/Subject lines full of names and addresses is not evidence of an attack. Seeded:
// the same seed gives the same blocks. The names, hosts and subjects are generic; none comes from an evaluation set.

const FIRST = [
  'Anna',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elif',
  'Farid',
  'Greta',
  'Hiroshi',
  'Ines',
  'Jamal',
  'Katarzyna',
  'Luis',
  'Mei',
  'Nils',
  'Olu',
  'Paula',
  'Quentin',
  'Rania',
  'Sven',
  'Tanvi',
  'Ugo',
  'Vera',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zofia',
  'Adaeze',
  'Bruno',
  'Carmen',
  'Dieter',
  'Emma',
  'Fatou',
  'George',
  'Hana',
  'Igor',
  'Julia',
  'Kofi',
];
const LAST = [
  'Schmidt',
  'Okonkwo',
  'García',
  'Nakamura',
  'Rossi',
  'Dubois',
  'Kowalski',
  'Andersson',
  'Patel',
  'Novak',
  'Murphy',
  'Haddad',
  'Silva',
  'Jansen',
  'Ivanova',
  'Kim',
  'Nguyen',
  'Yılmaz',
  'Moreau',
  'Fischer',
  'Lopez',
  'Brown',
  'Müller',
  'Costa',
  'Larsen',
  'Chen',
  'Walsh',
  'Mensah',
  'Horvat',
  'Virtanen',
];
const HOSTS = [
  'example.com',
  'example.org',
  'example.net',
  'mail.example',
  'acme-logistics.example',
  'northwind.example',
  'contoso.example',
  'firma.example.de',
  'societe.example.fr',
  'empresa.example.es',
  'studio.example.it',
  'uni.example.edu',
  'clinic.example',
  'school.example.org',
  'council.example.gov',
  'shop.example',
];
const TEAMS = ['Sales', 'Accounts', 'Support', 'Team', 'Board', 'HR', 'Newsletter', 'Bookings', 'Info', 'Office'];
const SUBJECTS = [
  'Quarterly figures',
  'Meeting on Thursday',
  'Re: Invoice 2207',
  'Fwd: Updated price list',
  'Holiday rota',
  'Your order has shipped',
  'Minutes of the last meeting',
  'Re: Re: Contract draft',
  'Welcome aboard!',
  'Reminder: timesheets',
  'Site visit next week',
  'Newsletter – May edition',
  'Room booking confirmed',
  'AW: Angebot Nr. 4411',
  'RE: Lieferung',
  'TR : Devis',
  'Objet : réunion du lundi',
  'RV: Presupuesto',
  'Photos from the trip',
  'Draft agenda',
  'Booking reference K7Q2',
  'Payment received – thank you',
];
const BODIES = [
  'Hi all, please find the notes attached.',
  'Thanks for your quick reply.',
  'See you on Monday.',
  'Dear colleagues, the figures are below.',
  'Hallo zusammen, anbei die Unterlagen.',
  'Bonjour, vous trouverez le document en pièce jointe.',
  'Hola, os envío el resumen.',
  'Best wishes, and thanks again.',
  'Let me know if anything is missing.',
  'Kind regards',
  'Cheers!',
  'Mit freundlichen Grüßen',
];
const FIELDS = {
  en: { from: 'From', to: 'To', cc: 'Cc', date: 'Date', subject: 'Subject', sent: 'Sent' },
  de: { from: 'Von', to: 'An', cc: 'Cc', date: 'Datum', subject: 'Betreff', sent: 'Gesendet' },
  fr: { from: 'De', to: 'À', cc: 'Cc', date: 'Date', subject: 'Objet', sent: 'Envoyé' },
  es: { from: 'De', to: 'Para', cc: 'CC', date: 'Fecha', subject: 'Asunto', sent: 'Enviado' },
  nl: { from: 'Van', to: 'Aan', cc: 'CC', date: 'Datum', subject: 'Onderwerp', sent: 'Verzonden' },
} as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** `count` header blocks (with a short first body line), drawn with the PRNG `r` (values in [0, 1)). */
export function syntheticHeaderBlocks(count: number, r: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pad = (n: number) => String(n).padStart(2, '0');
  const person = () => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const local = pick([`${first}.${last}`, `${first[0]}.${last}`, `${first}`, `${first[0]}${last}`])
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^\p{ASCII}]/gu, '');
    const address = `${local}@${pick(HOSTS)}`;
    return pick([`"${first} ${last}" <${address}>`, `${first} ${last} <${address}>`, address, `<${address}>`]);
  };
  const team = () => {
    const name = pick(TEAMS);
    return pick([`${name} <${name.toLowerCase()}@${pick(HOSTS)}>`, `"${name}" <${name.toLowerCase()}@${pick(HOSTS)}>`]);
  };
  const list = (max: number) =>
    Array.from({ length: int(1, max) }, () => (r() < 0.25 ? team() : person())).join(pick([', ', '; ']));
  const date = () => {
    const y = int(2019, 2026);
    const m = int(0, 11);
    const d = int(1, 28);
    const t = `${pad(int(6, 22))}:${pad(int(0, 59))}`;
    return pick([
      `${pick(DAYS)}, ${d} ${MONTHS[m]} ${y} ${t}:${pad(int(0, 59))} ${pick(['+0000', '+0100', '+0200', '-0500', '-0700'])}`,
      `${y}-${pad(m + 1)}-${pad(d)}T${t}:00.000Z`,
      `${d} ${MONTHS[m]} ${y} at ${t}`,
      `${pad(d)}.${pad(m + 1)}.${y} ${t}`,
    ]);
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const f = FIELDS[pick(['en', 'en', 'en', 'de', 'fr', 'es', 'nl'] as const)];
    const lines = [
      `${f.from}: ${person()}`,
      `${f.to}: ${list(4)}`,
      ...(r() < 0.4 ? [`${f.cc}: ${list(3)}`] : []),
      ...(r() < 0.15 ? [`Reply-To: ${person()}`] : []),
      `${r() < 0.3 ? f.sent : f.date}: ${date()}`,
      `${f.subject}: ${pick(SUBJECTS)}`,
      ...(r() < 0.15 ? [`Message-ID: <${int(100000, 999999)}.${int(1000, 9999)}@${pick(HOSTS)}>`] : []),
      ...(r() < 0.1 ? [`Attachments: ${pick(['report.pdf', 'minutes.docx', 'prices.xlsx', 'photo.jpg'])}`] : []),
    ];
    // the order of fields differs between mail programs: Subject first, or last
    if (r() < 0.4)
      lines.unshift(
        lines.splice(
          lines.findIndex((l) => l.startsWith(`${f.subject}:`)),
          1,
        )[0] ?? '',
      );
    out.push(`${lines.join('\n')}\n\n${pick(BODIES)}`);
  }
  return out;
}
