// bench/pii/lang-fr.ts: French vocabulary and templates of the evaluation set (written for it)
import { ent, t } from './build.ts'
import type { Pack } from './pack.ts'
import { digits, nir, pad, words } from './values.ts'

const MOIS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
]

export const FR: Pack = {
  language: 'fr',
  first: words(`
    Camille Mathieu Élodie Guillaume Aurélie Nicolas Sandrine Thibault Margaux Loïc Céline
    Julien Hélène Baptiste Nathalie Romain Sophie Étienne Clémence Benoît Mélanie Jérôme
    Chloé Antoine Delphine François Manon Cédric Pauline Grégoire Océane Yannick Gaëlle
    Olivier Brigitte Maxime Solène Thierry Anaïs Quentin Jean-Baptiste Marie-Claire
    Pierre-Louis Anne-Sophie Hervé Séverine Fabrice Laëtitia Didier Agnès`),
  last: [
    'Martin',
    'Bernard',
    'Dubois',
    'Thomas',
    'Robert',
    'Richard',
    'Petit',
    'Durand',
    'Leroy',
    'Moreau',
    'Simon',
    'Laurent',
    'Lefebvre',
    'Michel',
    'Garcia',
    'David',
    'Bertrand',
    'Roux',
    'Vincent',
    'Fournier',
    'Morel',
    'Girard',
    'André',
    'Lefèvre',
    'Mercier',
    'Dupont',
    'Lambert',
    'Bonnet',
    'François',
    'Martinez',
    'Legrand',
    'Garnier',
    'Faure',
    'Rousseau',
    'Blanc',
    'Guérin',
    'Muller',
    'Henry',
    'Roussel',
    'Nicolas',
    'Perrin',
    'Morin',
    'Mathieu',
    'Clément',
    'Gauthier',
    'Dumont',
    'Lopez',
    'Fontaine',
    'Chevalier',
    'Robin',
    'Le Goff',
    'Kerouac',
    'Delacroix',
    'Beaumont',
  ],
  fullName: (g) => {
    const style = g.int(0, 9)
    if (style === 0)
      return `${g.pick(['M.', 'Mme', 'Mme.', 'Monsieur', 'Madame', 'Dr'])} ${g.last()}`
    if (style === 1) return `${g.last().toUpperCase()} ${g.first()}`
    if (style === 2) return `${g.first()} ${g.pick(['de', 'du', 'Le'])} ${g.last()}`
    return `${g.first()} ${g.last()}`
  },
  address: (g) => {
    const num = `${g.int(1, 180)}${g.pick(['', '', '', ' bis', ' ter'])}`
    const kind = g.pick([
      'rue',
      'rue',
      'avenue',
      'boulevard',
      'chemin',
      'allée',
      'place',
      'impasse',
      'quai',
    ])
    const name = g.pick([
      'des Lilas',
      'de la République',
      'Victor Hugo',
      'du Général de Gaulle',
      'Jean Jaurès',
      'des Acacias',
      'de la Paix',
      'Pasteur',
      'des Écoles',
      'du Moulin',
      'Saint-Michel',
      'de Verdun',
      'des Tanneurs',
    ])
    const [cp, city] = g.pick([
      ['75011', 'Paris'],
      ['69003', 'Lyon'],
      ['13006', 'Marseille'],
      ['31000', 'Toulouse'],
      ['33000', 'Bordeaux'],
      ['44000', 'Nantes'],
      ['59000', 'Lille'],
      ['67000', 'Strasbourg'],
      ['35000', 'Rennes'],
      ['06000', 'Nice'],
    ] as const)
    const extra = g.chance(0.2)
      ? `, ${g.pick(['Bât. B', 'Apt 12', '3e étage', 'Résidence Les Pins'])}`
      : ''
    return g.chance(0.85)
      ? `${num} ${kind} ${name}${extra}, ${cp} ${city}`
      : `${num} ${kind} ${name}\n${cp} ${city.toUpperCase()}`
  },
  cities: words(`
    Paris Lyon Marseille Toulouse Bordeaux Nantes Lille Strasbourg Rennes Nice`),
  companies: [
    'Maison Lefèvre',
    'Transports Garonne',
    'Assurances Rivage',
    'Société Générale',
    'Orange',
    'SNCF',
    'La Poste',
    'Boulangerie du Coin',
    'Carrefour',
    'Renault',
    'Crédit Agricole',
    'Atelier Numérique',
  ],
  products: [
    'Peugeot 208',
    'iPhone 12',
    'Galaxy S21',
    'Freebox Pop',
    'Thermomix TM5',
    'Renault Clio',
    'Windows 10',
    'Louis Vuitton Neverfull',
    'Yves Saint Laurent Libre',
    'Christian Dior Sauvage',
    'Livebox 6',
    'Nespresso Vertuo',
  ],
  figures: [
    ['Emmanuel Macron', 'le président de la République'],
    ['Kylian Mbappé', "l'attaquant"],
    ['Marine Le Pen', 'la députée'],
    ['Zinedine Zidane', "l'ancien entraîneur"],
    ['Anne Hidalgo', 'la maire de Paris'],
    ['Gabriel Attal', "l'ancien Premier ministre"],
    ['Omar Sy', "l'acteur"],
    ['Aya Nakamura', 'la chanteuse'],
    ['Bernard Arnault', 'le patron de LVMH'],
  ],
  months: MOIS,
  dob: (g, d) =>
    g.pick([
      `${d.d === 1 ? '1er' : d.d} ${MOIS[d.m - 1]} ${d.y}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${pad(d.d, 2)}.${pad(d.m, 2)}.${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
    ]),
  date: (g, d) =>
    g.pick([
      `${d.d} ${MOIS[d.m - 1]} ${d.y}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
    ]),
  mailDomains: words(`
    orange.fr free.fr laposte.net gmail.com sfr.fr hotmail.fr wanadoo.fr yahoo.fr`),
  roleMailboxes: words(`
    contact serviceclient info support commandes facturation noreply rh bonjour sav`),
  phoneCountries: ['FR', 'FR', 'FR', 'FR'],
  passportCountry: 'FR',
  nationalIds: [(g, valid) => (valid ? ent('FR_NIR', nir(g.rng)) : nir(g.rng, false))],
  pii: [
    {
      id: 'fr-intro',
      make: (g) => t`Bonjour, je m'appelle ${g.name()} et je n'arrive plus à me connecter.`,
    },
    { id: 'fr-reach', make: (g) => t`Vous pouvez me joindre à ${g.email()} ou au ${g.phone()}.` },
    { id: 'fr-callback', make: (g) => t`Merci de me rappeler au ${g.phone()} après 18h.` },
    { id: 'fr-ship', make: (g) => t`Merci d'envoyer le colis au ${g.address()}.` },
    { id: 'fr-moved', make: (g) => t`Ma nouvelle adresse : ${g.address()}` },
    { id: 'fr-dob', make: (g) => t`Date de naissance : ${g.dob()}` },
    { id: 'fr-born', make: (g) => t`L'assuré est né le ${g.dob()} à ${g.city()}.` },
    {
      id: 'fr-nir',
      make: (g) => t`Mon numéro de sécurité sociale est le ${ent('FR_NIR', nir(g.rng))}.`,
    },
    { id: 'fr-nir2', make: (g) => t`N° SS : ${ent('FR_NIR', nir(g.rng))}` },
    {
      id: 'fr-card',
      make: (g) =>
        t`Vous pouvez débiter ma carte ${g.card()}, expiration 0${g.int(1, 9)}/2${g.int(6, 9)}.`,
    },
    { id: 'fr-iban', make: (g) => t`Merci de rembourser sur l'IBAN ${g.iban('FR')}.` },
    { id: 'fr-ip', make: (g) => t`Connexion suspecte depuis l'adresse IP ${g.ip()}.` },
    { id: 'fr-url', make: (g) => t`Voici mon profil : ${g.profileUrl()}` },
    { id: 'fr-passport', make: (g) => t`Numéro de passeport : ${g.passport()}` },
    { id: 'fr-signature', make: (g) => t`Cordialement,\n${g.name()}` },
    {
      id: 'fr-bonjour',
      make: (g) => t`Bonjour ${g.firstName()}, votre remboursement a été effectué.`,
    },
    { id: 'fr-cc', make: (g) => t`Je mets en copie mon épouse, ${g.name()} (${g.email()}).` },
    {
      id: 'fr-parle',
      make: (g) => t`J'ai parlé hier avec ${g.name()} qui m'a dit que le colis était perdu.`,
    },
    { id: 'fr-contact', make: (g) => t`Contact : ${g.name()}, tél. ${g.phone('FR')}` },
    { id: 'fr-sms', make: (g) => t`envoie moi un sms au ${g.phone('FR')} stp` },
    {
      id: 'fr-patient',
      make: (g) => t`La patiente ${g.name()}, née le ${g.dob()}, est suivie pour une entorse.`,
    },
  ],
  clean: [
    { id: 'fr-c-order', make: (g) => t`La commande ${g.orderId()} a été expédiée le ${g.date()}.` },
    { id: 'fr-c-support', make: (g) => t`Si le problème persiste, écrivez à ${g.roleEmail()}.` },
    {
      id: 'fr-c-product',
      make: (g) => t`Ma ${g.product()} redémarre sans arrêt depuis la mise à jour.`,
    },
    {
      id: 'fr-c-version',
      make: (g) => t`Après la mise à jour en version ${g.version()}, l'erreur a disparu.`,
    },
    {
      id: 'fr-c-figure',
      make: (g) => {
        const [n, r] = g.figure()
        return t`${r} ${n} était à ${g.city()} mardi.`
      },
    },
    {
      id: 'fr-c-figure2',
      make: (g) => {
        const [n] = g.figure()
        return t`Selon ${n}, l'accord sera signé à l'automne.`
      },
    },
    {
      id: 'fr-c-company',
      make: (g) => t`${g.company()} annonce un chiffre d'affaires record ce trimestre.`,
    },
    { id: 'fr-c-masked', make: (g) => t`Le paiement par carte ${g.maskedCard()} a été accepté.` },
    {
      id: 'fr-c-badcard',
      make: (g) => t`La référence ${g.badCard()} ne correspond à aucune carte.`,
    },
    {
      id: 'fr-c-badnir',
      make: (g) => t`Le numéro ${nir(g.rng, false)} est invalide : la clé ne correspond pas.`,
    },
    {
      id: 'fr-c-badiban',
      make: (g) => t`L'IBAN ${g.badIban('FR')} est incorrect, merci de vérifier.`,
    },
    {
      id: 'fr-c-private',
      make: (g) => t`Le service écoute sur ${g.privateIp()}:${g.int(1000, 9999)}.`,
    },
    { id: 'fr-c-uuid', make: (g) => t`La requête ${g.uuid()} a échoué avec le code 504.` },
    { id: 'fr-c-hash', make: (g) => t`Le commit ${g.sha()} corrige la régression.` },
    { id: 'fr-c-date', make: (g) => t`La facture est à régler avant le ${g.date()}.` },
    { id: 'fr-c-ts', make: (g) => t`Sauvegarde terminée à ${g.timestamp()}.` },
    { id: 'fr-c-place', make: (g) => t`Notre agence de ${g.city()} sera fermée lundi.` },
    {
      id: 'fr-c-street',
      make: (g) =>
        t`Le défilé passera par ${g.pick(['les Champs-Élysées', 'la rue de Rivoli', 'la Canebière', 'le boulevard Haussmann'])} ce week-end.`,
    },
    { id: 'fr-c-url', make: (g) => t`Plus d'informations sur ${g.plainUrl()}` },
    {
      id: 'fr-c-generic',
      make: (g) =>
        t`${g.pick(['Merci pour votre patience.', 'La réunion est déplacée en salle 4B.', 'Pouvez-vous renvoyer le PDF ?', 'Parfait, ça marche.', 'Nous clôturons ce ticket.', 'Nous traiterons votre demande sous 48 heures.', 'Le build a échoué à l’étape 3.'])}`,
    },
    {
      id: 'fr-c-qty',
      make: (g) =>
        t`Nous avons commandé ${g.int(2, 500)} unités à ${g.int(3, 900)},${digits(g.rng, 2)} € pièce.`,
    },
    { id: 'fr-c-tracking', make: (g) => t`Numéro de suivi ${digits(g.rng, 13)}` },
    {
      id: 'fr-c-role',
      make: (g) =>
        t`Chère cliente, cher client, votre demande a été transmise au ${g.pick(['service comptabilité', 'service après-vente', 'conseiller clientèle'])}.`,
    },
  ],
  frames: [
    {
      id: 'fr-email',
      make: (g) =>
        t`Objet : ${g.pick(['Problème avec ma commande', 'Compte bloqué', 'Demande de remboursement', 'Question sur la facture'])}\n\nBonjour,\n\n`,
    },
    {
      id: 'fr-ticket',
      make: (g) =>
        t`Ticket ${g.orderId()} | Priorité : ${g.pick(['Haute', 'Basse', 'Normale'])} | Ouvert le ${g.timestamp()}\n`,
    },
    {
      id: 'fr-chat',
      make: (g) =>
        t`[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] conseiller : Comment puis-je vous aider ?\n[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] client : `,
    },
  ],
}
