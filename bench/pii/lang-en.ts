// bench/pii/lang-en.ts: English vocabulary and templates of the evaluation set (written for it)
import { ent, t } from './build.ts'
import type { Pack } from './pack.ts'
import { digits, nhsNumber, nino, pad, words } from './values.ts'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const STATES = [
  ['CO', '80203'],
  ['IL', '60614'],
  ['TX', '78701'],
  ['WA', '98109'],
  ['NY', '11215'],
  ['OR', '97205'],
  ['MA', '02139'],
  ['GA', '30306'],
] as const

export const EN: Pack = {
  language: 'en',
  first: words(`
    James Olivia Ethan Hannah Marcus Chloe Daniel Priya Megan Tyler Rebecca Connor Aisha
    Gareth Fiona Liam Natalie Brandon Siobhan Kevin Rachel Dylan Imogen Trevor Lauren Arjun
    Kayla Nathan Bethany Owen Jasmine Colin Vanessa Rory Melissa Darius Heather Samuel Tanya
    Eleanor Graham Whitney Callum Deborah Rajesh Shannon Elliot Bridget Malik Courtney
    Pauline Desmond Ruth Harvey Leanne Wesley Monica Stuart Yvonne Clive`),
  last: words(`
    Thompson Harrington Okafor Whitfield McAllister Patel Brennan Caldwell Donovan Fairbanks
    Gallagher Holloway Iverson Jenkins Kowalski Lindqvist Mahoney Nguyen Osborne Pritchard
    Quinlan Rutherford Sinclair Townsend Underwood Vasquez Westbrook Yardley Zimmerman
    Ashworth Blackwood Chowdhury Dempsey Ellsworth Fletcher Greenberg Hartley Ingram
    Jablonski Kendrick Lockhart Merriweather Nakamura Oyelaran Prescott Radcliffe Stanhope
    Tremblay Varga Whitaker Abernathy Brightwell Crowley Dunmore Eastwood Fitzgerald
    Galloway Hendricks Kaur Moreland`),
  fullName: (g) => {
    const style = g.int(0, 9)
    if (style === 0) return `${g.first()} ${g.pick(['A.', 'J.', 'R.', 'M.', 'T.'])} ${g.last()}`
    if (style === 1) return `${g.first()} ${g.last()}-${g.last()}`
    if (style === 2) return `${g.pick(['Mr', 'Mrs', 'Ms', 'Dr', 'Mr.', 'Ms.'])} ${g.last()}`
    return `${g.first()} ${g.last()}`
  },
  address: (g) => {
    const num = g.int(2, 9800)
    const street = g.pick([
      'Maple',
      'Cedar Ridge',
      'Willow Creek',
      'Lincoln',
      'Harbor View',
      'Oakmont',
      'Sycamore',
      'Birchwood',
      'Chestnut',
      'Kingsley',
      'Ashgrove',
      'Elmhurst',
      'Primrose',
      'Larkspur',
    ])
    if (g.chance(0.5)) {
      const [state, zip] = g.pick(STATES)
      const suffix = g.pick(['Street', 'Avenue', 'Drive', 'Lane', 'Blvd', 'Road', 'Ct', 'St.'])
      const unit = g.chance(0.35)
        ? `, ${g.pick(['Apt', 'Unit', 'Suite', '#'])} ${g.int(1, 40)}${g.pick(['', 'B', 'C'])}`
        : ''
      const city = g.pick([
        'Denver',
        'Chicago',
        'Austin',
        'Seattle',
        'Brooklyn',
        'Portland',
        'Cambridge',
        'Atlanta',
      ])
      return `${num} ${street} ${suffix}${unit}, ${city}, ${state} ${zip}`
    }
    const suffix = g.pick(['Road', 'Lane', 'Close', 'Crescent', 'Gardens', 'Terrace', 'Way'])
    const [city, pc] = g.pick([
      ['Leeds', 'LS6 2AB'],
      ['Bristol', 'BS8 4QT'],
      ['Manchester', 'M20 3FJ'],
      ['Glasgow', 'G12 8QQ'],
      ['Cardiff', 'CF24 4HQ'],
      ['Norwich', 'NR2 3DP'],
      ['York', 'YO31 7EL'],
    ] as const)
    const flat = g.chance(0.25) ? `Flat ${g.int(1, 12)}, ` : ''
    return `${flat}${g.int(1, 240)} ${street} ${suffix}, ${city} ${pc}`
  },
  cities: [
    'London',
    'New York',
    'Chicago',
    'Manchester',
    'Toronto',
    'Sydney',
    'Dublin',
    'Boston',
    'Edinburgh',
    'Seattle',
  ],
  companies: [
    'Brightline Analytics',
    'Northwind Traders',
    'Harbor Freight Logistics',
    'Bluepeak Software',
    'Crestview Insurance',
    'Ironbridge Capital',
    'Greenleaf Foods',
    'Summit Health Partners',
    'Microsoft',
    'Amazon',
    'Barclays',
    'Tesco',
    'Walmart',
    'Salesforce',
    'Ford Motor Company',
  ],
  products: [
    'iPhone 15 Pro',
    'Galaxy S23',
    'ThinkPad X1 Carbon',
    'Model Y',
    'PlayStation 5',
    'Windows 11',
    'Kindle Paperwhite',
    'Surface Laptop 5',
    'Ford Focus',
    'Jira Cloud',
    'Hugo Boss cologne',
    'Ralph Lauren polo',
    'Tommy Hilfiger jacket',
    'Dr. Martens boots',
    "Ben & Jerry's ice cream",
  ],
  figures: [
    ['Barack Obama', 'former US president'],
    ['Joe Biden', 'President'],
    ['Taylor Swift', 'singer'],
    ['Elon Musk', 'Tesla CEO'],
    ['Rishi Sunak', 'former Prime Minister'],
    ['Serena Williams', 'tennis champion'],
    ['Tim Cook', 'Apple CEO'],
    ['King Charles', 'monarch'],
    ['Keir Starmer', 'Prime Minister'],
    ['Lewis Hamilton', 'Formula 1 driver'],
    ['Oprah Winfrey', 'talk show host'],
    ['Warren Buffett', 'investor'],
  ],
  months: MONTHS,
  dob: (g, d) =>
    g.pick([
      `${MONTHS[d.m - 1]} ${d.d}, ${d.y}`,
      `${d.d} ${MONTHS[d.m - 1]} ${d.y}`,
      `${pad(d.m, 2)}/${pad(d.d, 2)}/${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${d.m}/${d.d}/${String(d.y).slice(2)}`,
    ]),
  date: (g, d) =>
    g.pick([
      `${MONTHS[d.m - 1]} ${d.d}, ${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
      `${pad(d.m, 2)}/${pad(d.d, 2)}/${d.y}`,
      `${d.d} ${(MONTHS[d.m - 1] ?? '').slice(0, 3)} ${d.y}`,
    ]),
  mailDomains: words(`
    gmail.com yahoo.com outlook.com hotmail.co.uk icloud.com aol.com protonmail.com
    btinternet.com`),
  roleMailboxes: words(`
    support info noreply no-reply sales billing admin help hello team careers privacy
    security orders`),
  phoneCountries: ['US', 'US', 'GB', 'GB', 'AU', 'IN'],
  passportCountry: 'US',
  nationalIds: [(g) => g.ssn(), (g, valid) => (valid ? g.ssn() : g.badSsn())],
  pii: [
    { id: 'en-intro', make: (g) => t`Hi, my name is ${g.name()} and I can't log into my account.` },
    { id: 'en-reach', make: (g) => t`You can reach me at ${g.email()} or on ${g.phone()}.` },
    { id: 'en-callback', make: (g) => t`Please call me back on ${g.phone()} after 5pm.` },
    { id: 'en-ship', make: (g) => t`Ship the replacement to ${g.address()}.` },
    { id: 'en-moved', make: (g) => t`I moved last month, my new address is ${g.address()}` },
    { id: 'en-dob', make: (g) => t`Date of birth: ${g.dob()}` },
    { id: 'en-born', make: (g) => t`The account holder was born on ${g.dob()} in ${g.city()}.` },
    {
      id: 'en-dob2',
      make: (g) =>
        t`For verification, my DOB is ${g.dob()} and the last four of my card are ${g.maskedCard()}.`,
    },
    {
      id: 'en-card',
      make: (g) => t`Charge it to my card ${g.card()}, exp 0${g.int(1, 9)}/2${g.int(6, 9)}.`,
    },
    { id: 'en-card2', make: (g) => t`card_number=${g.card()} status=declined` },
    { id: 'en-ssn', make: (g) => t`My social security number is ${g.ssn()}.` },
    { id: 'en-ssn2', make: (g) => t`SSN: ${g.ssn()}` },
    { id: 'en-iban', make: (g) => t`Please refund to IBAN ${g.iban('GB')}.` },
    { id: 'en-ip', make: (g) => t`Suspicious login from ${g.ip()} on ${g.date()}.` },
    { id: 'en-url', make: (g) => t`Here is my profile: ${g.profileUrl()}` },
    {
      id: 'en-passport',
      make: (g) => t`Passport number ${g.passport()}, issued in ${g.int(2015, 2023)}.`,
    },
    { id: 'en-passport2', make: (g) => t`I'm travelling on US passport no. ${g.passport()}` },
    {
      id: 'en-nino',
      make: (g) =>
        t`National Insurance number: ${ent('UK_NATIONAL_INSURANCE_NUMBER', nino(g.rng))}`,
    },
    {
      id: 'en-nhs',
      make: (g) =>
        t`Patient NHS number ${ent('UK_NATIONAL_HEALTH_SERVICE_NUMBER', nhsNumber(g.rng))} was admitted to ward 7.`,
    },
    { id: 'en-signoff', make: (g) => t`Thanks so much,\n${g.name()}` },
    { id: 'en-cc-to', make: (g) => t`I've cc'd my wife ${g.name()} (${g.email()}) on this.` },
    { id: 'en-hi', make: (g) => t`Hi ${g.firstName()}, your refund has been processed.` },
    { id: 'en-emp', make: (g) => t`${g.name()} from our finance team approved the invoice.` },
    { id: 'en-contact', make: (g) => t`Emergency contact: ${g.name()}, ${g.phone()}` },
    { id: 'en-text', make: (g) => t`text me at ${g.phone('US')} pls` },
    {
      id: 'en-spoke',
      make: (g) => t`I spoke to ${g.name()} yesterday and she said the order was lost.`,
    },
  ],
  clean: [
    {
      id: 'en-c-order',
      make: (g) => t`Order ${g.orderId()} shipped on ${g.date()} and should arrive within 3 days.`,
    },
    {
      id: 'en-c-support',
      make: (g) => t`Please contact ${g.roleEmail()} if the problem persists.`,
    },
    {
      id: 'en-c-product',
      make: (g) => t`My ${g.product()} keeps restarting after the last update.`,
    },
    {
      id: 'en-c-version',
      make: (g) => t`Upgraded the agent to version ${g.version()} and the error is gone.`,
    },
    {
      id: 'en-c-figure',
      make: (g) => {
        const [n, r] = g.figure()
        return t`${r} ${n} spoke at the summit in ${g.city()} on Tuesday.`
      },
    },
    {
      id: 'en-c-figure2',
      make: (g) => {
        const [n] = g.figure()
        return t`The article quotes ${n} on the new trade agreement.`
      },
    },
    {
      id: 'en-c-company',
      make: (g) => t`${g.company()} announced record profits for Q${g.int(1, 4)}.`,
    },
    { id: 'en-c-masked', make: (g) => t`Payment with card ${g.maskedCard()} was approved.` },
    { id: 'en-c-badcard', make: (g) => t`Reference number ${g.badCard()} is not a valid card.` },
    { id: 'en-c-badssn', make: (g) => t`Test SSN ${g.badSsn()} was rejected by the validator.` },
    { id: 'en-c-maskedssn', make: (g) => t`SSN on file: ${g.maskedSsn()}` },
    {
      id: 'en-c-badiban',
      make: (g) => t`The IBAN ${g.badIban()} failed validation, please check it.`,
    },
    {
      id: 'en-c-private',
      make: (g) => t`The service listens on ${g.privateIp()}:${g.int(1000, 9999)}.`,
    },
    { id: 'en-c-uuid', make: (g) => t`Request ${g.uuid()} failed with status 502.` },
    { id: 'en-c-hash', make: (g) => t`Commit ${g.sha()} fixed the regression.` },
    { id: 'en-c-date', make: (g) => t`The invoice is due on ${g.date()}.` },
    { id: 'en-c-ts', make: (g) => t`Backup completed at ${g.timestamp()}.` },
    { id: 'en-c-place', make: (g) => t`Our ${g.city()} office will be closed on Monday.` },
    {
      id: 'en-c-street',
      make: (g) =>
        t`The parade goes down ${g.pick(['Main Street', 'Fifth Avenue', 'Oxford Street', 'Baker Street', 'Sunset Boulevard'])} this weekend.`,
    },
    { id: 'en-c-url', make: (g) => t`See ${g.plainUrl()} for details.` },
    {
      id: 'en-c-generic',
      make: (g) =>
        t`${g.pick(['Thanks for your patience!', 'The meeting has moved to room 4B.', 'Can you resend the PDF?', 'Great, that worked.', 'Closing this ticket as resolved.', 'We will review your request within 48 hours.', 'The build failed on step 3 of 7.', 'Kindly confirm receipt of the goods.'])}`,
    },
    {
      id: 'en-c-room',
      make: (g) =>
        t`Call extension ${g.int(1000, 9999)} or go to building ${g.int(1, 9)}, room ${g.int(100, 450)}.`,
    },
    {
      id: 'en-c-qty',
      make: (g) =>
        t`We ordered ${g.int(2, 500)} units at $${g.int(3, 900)}.${digits(g.rng, 2)} each, total ${g.int(1000, 99999)}.`,
    },
    {
      id: 'en-c-badnhs',
      make: (g) => t`Batch ${nhsNumber(g.rng, false)} was re-queued by the scheduler.`,
    },
    {
      id: 'en-c-badnino',
      make: (g) => t`Example format: ${nino(g.rng, false)} (not a real number).`,
    },
    {
      id: 'en-c-tracking',
      make: (g) => t`Tracking number ${digits(g.rng, 9)} shows the parcel in transit.`,
    },
    {
      id: 'en-c-role',
      make: (g) =>
        t`Dear customer, your ticket was assigned to the ${g.pick(['billing team', 'support agent on duty', 'account manager', 'night shift'])}.`,
    },
  ],
  frames: [
    {
      id: 'en-email',
      make: (g) =>
        t`Subject: ${g.pick(['Problem with my order', 'Account locked', 'Refund request', 'Question about invoice'])}\n\nHello,\n\n`,
    },
    {
      id: 'en-ticket',
      make: (g) =>
        t`Ticket ${g.orderId()} | Priority: ${g.pick(['High', 'Low', 'Normal'])} | Opened ${g.timestamp()}\n`,
    },
    {
      id: 'en-chat',
      make: (g) =>
        t`[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] agent: How can I help you today?\n[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] customer: `,
    },
  ],
}
