// bench/pii/lang-de.ts: German vocabulary and templates of the evaluation set (written for it)
import { ent, t } from './build.ts'
import type { Pack } from './pack.ts'
import { digits, germanTaxId, pad, words } from './values.ts'

const MONATE = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
]

export const DE: Pack = {
  language: 'de',
  first: words(`
    Lukas Sabine Jörg Annika Matthias Katrin Florian Ursula Tobias Heike Dominik Birgit
    Sebastian Jana Uwe Friederike Malte Svenja Henrik Dagmar Jürgen Leonie Torsten Anke
    Moritz Gisela Volker Franziska Benedikt Ilse Kai Marlene Detlef Wiebke Ole Hannelore
    Rüdiger Carina Niklas Ingrid Till Beate Günther Mareike Fabian Elke Konstantin Sönke
    Lieselotte Ralf`),
  last: words(`
    Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Hoffmann Schäfer Koch Richter
    Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange
    Schmitt Werner Krause Lehmann Köhler Herrmann Walter Kaiser Fuchs Peters Scholz Möller
    Weiß Jung Hahn Vogel Friedrich Keller Günther Berger Winkler Roth Beck Lorenz Baumann
    Franke Albrecht Brandstätter Oberhuber Eichhorn Wendtland`),
  fullName: (g) => {
    const style = g.int(0, 9)
    if (style === 0) return `${g.pick(['Herr', 'Frau', 'Dr.', 'Prof. Dr.'])} ${g.last()}`
    if (style === 1) return `${g.first()}-${g.first()} ${g.last()}`
    if (style === 2) return `${g.first()} ${g.pick(['von', 'von der', 'zu'])} ${g.last()}`
    if (style === 3) return `${g.last()}, ${g.first()}`
    return `${g.first()} ${g.last()}`
  },
  address: (g) => {
    const stem = g.pick([
      'Linden',
      'Goethe',
      'Schiller',
      'Bahnhof',
      'Eichen',
      'Birken',
      'Mozart',
      'Garten',
      'Kirch',
      'Rosen',
      'Berliner ',
      'Friedrich-Ebert-',
      'Ahorn',
      'Mühlen',
      'Tannen',
    ])
    const kind = g.pick(['straße', 'str.', 'weg', 'allee', 'platz', 'ring', 'gasse', 'Straße'])
    const street =
      stem.endsWith(' ') || stem.endsWith('-')
        ? `${stem}${kind.charAt(0).toUpperCase()}${kind.slice(1)}`
        : `${stem}${kind}`
    const num = `${g.int(1, 180)}${g.pick(['', '', '', 'a', 'b'])}`
    const [plz, city] = g.pick([
      ['10115', 'Berlin'],
      ['80331', 'München'],
      ['50667', 'Köln'],
      ['20095', 'Hamburg'],
      ['60311', 'Frankfurt am Main'],
      ['70173', 'Stuttgart'],
      ['04109', 'Leipzig'],
      ['28195', 'Bremen'],
      ['01067', 'Dresden'],
      ['90402', 'Nürnberg'],
    ] as const)
    const line = g.chance(0.15)
      ? `Am ${g.pick(['Mühlbach', 'Sonnenhang', 'Kirchberg'])} ${num}`
      : `${street} ${num}`
    return g.chance(0.85) ? `${line}, ${plz} ${city}` : `${line}\n${plz} ${city}`
  },
  cities: words(`
    Berlin München Hamburg Köln Frankfurt Stuttgart Leipzig Dresden Hannover Düsseldorf`),
  companies: [
    'Nordwind Solar GmbH',
    'Bäckerei Sonnenschein',
    'Deutsche Bahn',
    'Siemens AG',
    'Stadtwerke Musterstadt',
    'Logistik Hansa KG',
    'Allianz',
    'Volkswagen',
    'Sparkasse',
    'Zalando',
    'Versicherung Elbe AG',
    'Lidl',
  ],
  products: [
    'Golf 8',
    'iPhone 13',
    'Galaxy S22',
    'Thermomix',
    'Miele Waschmaschine',
    'Porsche Taycan',
    'Windows 11',
    'Dr. Oetker Pizza',
    'Hugo Boss Anzug',
    'Mercedes-Benz E-Klasse',
    'FritzBox 7590',
    'Haribo Goldbären',
  ],
  figures: [
    ['Angela Merkel', 'Altkanzlerin'],
    ['Olaf Scholz', 'Bundeskanzler'],
    ['Thomas Müller', 'Nationalspieler'],
    ['Helene Fischer', 'Sängerin'],
    ['Frank-Walter Steinmeier', 'Bundespräsident'],
    ['Friedrich Merz', 'CDU-Chef'],
    ['Annalena Baerbock', 'Außenministerin'],
    ['Manuel Neuer', 'Torwart'],
    ['Dirk Nowitzki', 'Basketballstar'],
  ],
  months: MONATE,
  dob: (g, d) =>
    g.pick([
      `${pad(d.d, 2)}.${pad(d.m, 2)}.${d.y}`,
      `${pad(d.d, 2)}.${pad(d.m, 2)}.${d.y}`,
      `${d.d}. ${MONATE[d.m - 1]} ${d.y}`,
      `${d.d}.${d.m}.${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
    ]),
  date: (g, d) =>
    g.pick([
      `${pad(d.d, 2)}.${pad(d.m, 2)}.${d.y}`,
      `${d.d}. ${MONATE[d.m - 1]} ${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
    ]),
  mailDomains: words(`
    gmx.de web.de t-online.de gmail.com posteo.de freenet.de outlook.de gmx.net`),
  roleMailboxes: words(`
    kontakt info service support rechnung bestellung noreply datenschutz presse
    kundenservice`),
  phoneCountries: ['DE', 'DE', 'DE', 'DE'],
  passportCountry: 'DE',
  nationalIds: [
    (g, valid) => (valid ? ent('DE_TAX_ID', germanTaxId(g.rng)) : germanTaxId(g.rng, false)),
  ],
  pii: [
    {
      id: 'de-intro',
      make: (g) => t`Hallo, mein Name ist ${g.name()} und ich komme nicht mehr in mein Konto.`,
    },
    {
      id: 'de-reach',
      make: (g) => t`Sie erreichen mich unter ${g.email()} oder telefonisch unter ${g.phone()}.`,
    },
    { id: 'de-callback', make: (g) => t`Bitte rufen Sie mich unter ${g.phone()} zurück.` },
    { id: 'de-ship', make: (g) => t`Bitte schicken Sie das Ersatzgerät an ${g.address()}.` },
    { id: 'de-moved', make: (g) => t`Meine neue Anschrift lautet: ${g.address()}` },
    { id: 'de-dob', make: (g) => t`Geburtsdatum: ${g.dob()}` },
    { id: 'de-born', make: (g) => t`Der Versicherte ist am ${g.dob()} in ${g.city()} geboren.` },
    { id: 'de-geb', make: (g) => t`${g.name()}, geb. ${g.dob()}` },
    {
      id: 'de-taxid',
      make: (g) => t`Meine Steuer-ID lautet ${ent('DE_TAX_ID', germanTaxId(g.rng))}.`,
    },
    {
      id: 'de-idnr',
      make: (g) => t`Steuerliche Identifikationsnummer: ${ent('DE_TAX_ID', germanTaxId(g.rng))}`,
    },
    {
      id: 'de-card',
      make: (g) => t`Bitte buchen Sie den Betrag von meiner Kreditkarte ${g.card()} ab.`,
    },
    {
      id: 'de-iban',
      make: (g) => t`Bitte überweisen Sie die Erstattung auf IBAN ${g.iban('DE')}.`,
    },
    { id: 'de-ip', make: (g) => t`Verdächtige Anmeldung von der IP-Adresse ${g.ip()}.` },
    { id: 'de-url', make: (g) => t`Mein Profil: ${g.profileUrl()}` },
    { id: 'de-passport', make: (g) => t`Reisepassnummer: ${g.passport()}` },
    { id: 'de-gruss', make: (g) => t`Mit freundlichen Grüßen\n${g.name()}` },
    { id: 'de-hallo', make: (g) => t`Hallo ${g.firstName()}, Ihre Erstattung wurde veranlasst.` },
    {
      id: 'de-cc',
      make: (g) => t`Ich habe meine Frau ${g.name()} (${g.email()}) in Kopie gesetzt.`,
    },
    {
      id: 'de-sprach',
      make: (g) => t`Ich habe gestern mit ${g.name()} gesprochen, das Paket sei verloren gegangen.`,
    },
    { id: 'de-kontakt', make: (g) => t`Ansprechpartner: ${g.name()}, Tel. ${g.phone('DE')}` },
    { id: 'de-handy', make: (g) => t`meine handynummer ist ${g.phone('DE')}, schreib mir einfach` },
    {
      id: 'de-patient',
      make: (g) => t`Patientin ${g.name()} (geboren am ${g.dob()}) wurde heute aufgenommen.`,
    },
  ],
  clean: [
    {
      id: 'de-c-order',
      make: (g) => t`Die Bestellung ${g.orderId()} wurde am ${g.date()} versendet.`,
    },
    { id: 'de-c-support', make: (g) => t`Wenden Sie sich bei Fragen an ${g.roleEmail()}.` },
    {
      id: 'de-c-product',
      make: (g) => t`Mein ${g.product()} startet seit dem letzten Update ständig neu.`,
    },
    {
      id: 'de-c-version',
      make: (g) => t`Nach dem Update auf Version ${g.version()} ist der Fehler behoben.`,
    },
    {
      id: 'de-c-figure',
      make: (g) => {
        const [n, r] = g.figure()
        return t`${r} ${n} besuchte am Dienstag ${g.city()}.`
      },
    },
    {
      id: 'de-c-figure2',
      make: (g) => {
        const [n] = g.figure()
        return t`Laut ${n} soll das Abkommen im Herbst unterzeichnet werden.`
      },
    },
    { id: 'de-c-company', make: (g) => t`${g.company()} meldet einen Rekordumsatz im Quartal.` },
    {
      id: 'de-c-masked',
      make: (g) => t`Die Zahlung mit der Karte ${g.maskedCard()} wurde bestätigt.`,
    },
    {
      id: 'de-c-badcard',
      make: (g) => t`Die Referenznummer ${g.badCard()} ist keine gültige Kartennummer.`,
    },
    {
      id: 'de-c-badtax',
      make: (g) => t`Die Nummer ${germanTaxId(g.rng, false)} ist als Steuer-ID ungültig.`,
    },
    {
      id: 'de-c-badiban',
      make: (g) => t`Die IBAN ${g.badIban('DE')} ist fehlerhaft, bitte prüfen.`,
    },
    {
      id: 'de-c-private',
      make: (g) => t`Der Dienst lauscht auf ${g.privateIp()}:${g.int(1000, 9999)}.`,
    },
    { id: 'de-c-uuid', make: (g) => t`Anfrage ${g.uuid()} schlug mit Status 503 fehl.` },
    { id: 'de-c-hash', make: (g) => t`Commit ${g.sha()} behebt den Fehler.` },
    { id: 'de-c-date', make: (g) => t`Die Rechnung ist am ${g.date()} fällig.` },
    { id: 'de-c-ts', make: (g) => t`Sicherung abgeschlossen um ${g.timestamp()}.` },
    {
      id: 'de-c-place',
      make: (g) => t`Unser Standort in ${g.city()} bleibt am Montag geschlossen.`,
    },
    {
      id: 'de-c-street',
      make: (g) =>
        t`Der Umzug zieht heute über die ${g.pick(['Königsallee', 'Friedrichstraße', 'Kaufingerstraße', 'Zeil'])}.`,
    },
    { id: 'de-c-url', make: (g) => t`Details unter ${g.plainUrl()}` },
    {
      id: 'de-c-generic',
      make: (g) =>
        t`${g.pick(['Vielen Dank für Ihre Geduld.', 'Das Meeting ist in Raum 4B verlegt.', 'Können Sie das PDF erneut senden?', 'Super, jetzt klappt es.', 'Wir schließen das Ticket als erledigt.', 'Wir prüfen Ihre Anfrage innerhalb von 48 Stunden.', 'Der Build ist in Schritt 3 fehlgeschlagen.'])}`,
    },
    {
      id: 'de-c-qty',
      make: (g) =>
        t`Wir haben ${g.int(2, 500)} Stück zu je ${g.int(3, 900)},${digits(g.rng, 2)} € bestellt.`,
    },
    { id: 'de-c-tracking', make: (g) => t`Sendungsnummer ${digits(g.rng, 12)}` },
    {
      id: 'de-c-role',
      make: (g) =>
        t`Sehr geehrte Kundin, sehr geehrter Kunde, Ihr Anliegen wurde an die ${g.pick(['Buchhaltung', 'Fachabteilung', 'Kundenbetreuung'])} weitergeleitet.`,
    },
  ],
  frames: [
    {
      id: 'de-email',
      make: (g) =>
        t`Betreff: ${g.pick(['Problem mit meiner Bestellung', 'Konto gesperrt', 'Erstattung', 'Frage zur Rechnung'])}\n\nSehr geehrte Damen und Herren,\n\n`,
    },
    {
      id: 'de-ticket',
      make: (g) =>
        t`Ticket ${g.orderId()} | Priorität: ${g.pick(['Hoch', 'Niedrig', 'Normal'])} | Eröffnet ${g.timestamp()}\n`,
    },
    {
      id: 'de-chat',
      make: (g) =>
        t`[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] Agent: Wie kann ich helfen?\n[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] Kunde: `,
    },
  ],
}
