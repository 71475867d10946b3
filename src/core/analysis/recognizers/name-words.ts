// src/core/analysis/recognizers/name-words.ts: the word lists of the name recognizer, in English, Spanish, German and French

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean))

/** Words that say what follows is a person's name. */
export const INTRODUCING = words(`
  name named names nombre nom nome llamo llama heiße heißt heisse appelle appelles i'm im soy suis
  contact contacto kontakt ansprechpartner ansprechpartnerin
  customer cliente kunde kundin client patient patientin patiente paciente holder titular
  inhaber inhaberin titulaire employee empleado empleada mitarbeiter mitarbeiterin employé employée user
  usuario benutzer utilisateur attn attention atención wife husband marido esposa mujer épouse mari
  partner pareja son daughter hijo hija sohn tochter fils fille mother father madre padre mutter vater
  mère père tenant inquilino mieter locataire applicant solicitante bewerber bewerberin candidat
  candidate guest huésped gast invité passenger pasajero passagier passager recipient destinatario
  empfänger destinataire sender remitente absender expéditeur owner propietario eigentümer propriétaire
  full_name fullname first_name last_name firstname lastname surname apellido apellidos vorname nachname
  prénom prenom nom_complet cc bcc assignee reviewer reporter`)

/** Verbs of a person right after a name ("Tendai Moyo reported …", "… hat angerufen", "… a appelé"). */
export const ACTING = words(`
  said says wrote writes called calls phoned rang emailed reported asked asks replied answered
  complained confirmed signed requested wants wanted needs needed joined left visited paid ordered
  dijo escribió llamó pidió solicita solicitó reclama confirmó firmó pagó pregunta preguntó
  sagte schrieb rief anrief angerufen meldete bat bestätigte unterschrieb bezahlte fragte
  dit écrit appelle appelé demande demandé confirme confirmé signé payé réclame`)

/** Words that introduce a name themselves ("my name is", "je m'appelle"), enough for a surname alone. */
export const NAMING = words(`
  name named nombre nom llamo heiße heißt heisse appelle i'm im soy suis signed firmado
  unterschrieben signé full_name fullname first_name last_name firstname lastname surname apellido
  apellidos vorname nachname prénom prenom`)

/** Pronouns, determiners and other words that start sentences but never names. */
export const NON_NAME_WORDS = words(`
  i me we us you he she it they our ours your yours their his her its this that these those every
  each all some any no not none both either neither here there when where what which who why how
  if then than but and or so as at by in on of to up yes ok okay also just only please sorry
  yo tú tu usted nosotros ellos ellas él ella nuestro nuestra nuestros nuestras vuestro vuestra
  este esta estos estas ese esa esos esas aquel aquella todo toda todos todas sus mis tus cada
  aquí allí cuando donde qué que quien como si pero porque también sí
  ich du er sie es wir ihr ihre ihren ihrem ihrer unser unsere unseren unserem euer eure dein deine
  sein seine dies diese dieser dieses jeder jede jedes alle kein keine sehr hier dort wenn wo was
  wer wie ob aber und oder auch ja nein noch schon
  je tu il elle nous vous ils elles notre nos votre vos leur leurs ce cet cette ces son sa ses
  mon ma mes ton ta tes tout toute tous toutes chaque ici là quand où quoi qui comment si mais et
  ou aussi oui non
  yesterday today tomorrow tonight monday tuesday wednesday thursday friday saturday sunday
  ayer hoy mañana gestern heute morgen montag dienstag mittwoch donnerstag freitag samstag sonntag
  hier aujourd'hui demain`)

/** Prepositions that put any run after them in a place ("in New York", "en Castilla y León"). */
export const IN_PLACE = words('in en dans nach im')

/** Prepositions of place: a single capitalised word after one is a place ("in Berlin", "de Sevilla"). */
export const PLACE_PREPOSITIONS = words(`
  in at from to near via into towards de en desde hasta hacia para a à au aux vers depuis dans
  nach aus von bei zu über ab`)

/** Greetings and thanks right before a name ("Hi Anna", "Estimado Sr. Ruiz", "Gracias Lucía"). */
export const GREETINGS = words(`
  hi hello dear hey hiya thanks hola estimado estimada querido querida hallo liebe lieber bonjour
  cher chère salut coucou bonsoir buenas buenos gracias merci danke`)

/** Closing formulas; a name on the next line signs the message. */
export const SIGN_OFFS = words(`
  regards thanks cheers sincerely best wishes saludo saludos atentamente gracias abrazo grüße grüßen
  gruß danke herzlich cordialement merci bises amitiés salutations`)

/** Words that often stand near a person's name in tickets and conversations. */
export const SOCIAL = words(`
  with con mit avec spoke talked called met hablé hable hablado gesprochen parlé by por par
  colleague compañero compañera kollege kollegin collègue manager agent agente sachbearbeiter
  technician técnico techniker technicien doctor médico arzt ärztin médecin approved aprobó genehmigt
  approuvé cc'd copia kopie copie asked told dijo sagte dit mr mrs ms`)

/** Words that make a capitalised run an organisation, a product, a place or a street. */
export const NOT_PERSON = words(`
  gmbh ag kg ohg ug ltd llc inc corp co plc sa sl sarl sas gbr ev e.v. group grupo groupe bank banco
  banque company compañía compagnie société sociedad gesellschaft analytics software logistics
  insurance seguros assurances versicherung capital foods partners solutions services traders
  trading systems technologies labs holdings consulting media studios airlines motors motor
  university universidad université universität hospital hôpital krankenhaus clinic clínica klinik
  school escuela schule école street st avenue ave road rd drive lane boulevard blvd way calle
  avenida plaza paseo straße strasse weg allee platz rue chemin allée office oficina büro bureau team
  equipo department departamento abteilung service servicio kundenservice hotel restaurant café cafe
  kindle galaxy pixel surface playstation xbox iphone ipad macbook thinkpad model windows jira cloud
  android chrome alexa echo siri tesla fiesta focus golf polo clio ibiza taycan laptop pro mini
  ultra plus air watch pizza cologne jacket boots polo anzug ice cream neverfull sauvage libre
  república republic gobierno government regierung gouvernement ministerio ministry ministerium
  ministère comunidad community gemeinde communauté stadtwerke bäckerei boulangerie maison atelier
  farmacias transportes construcciones seguros logistik nordwind harbor freight northwind
  gymnasium lycée lycee colegio instituto academy college museum museo musée museu stadium estadio
  stade stadion station bahnhof gare estación airport aeropuerto flughafen aéroport bridge puente
  brücke pont cathedral catedral cathédrale dom church iglesia église kirche festival foundation
  fundación fondation stiftung institute institut prize premio prix preis award cup copa coupe pokal
  league liga ligue championship tour post times journal news herald tribune gazette magazine press
  observer telegraph chronicle zeitung rundschau allgemeine periódico diario monde figaro libération`)

/** Brands named after people (a deny list in Presidio's sense). */
export const BRANDS = new Set(
  `hugo boss|tommy hilfiger|ralph lauren|calvin klein|louis vuitton|christian dior|yves saint laurent|
  carolina herrera|giorgio armani|coco chanel|jean paul gaultier|karl lagerfeld|marc jacobs|
  michael kors|kate spade|tory burch|dr oetker|dr. oetker|john deere|martha stewart|paul smith|
  ted baker|aston martin|zara|zara home|massimo dutti|walt disney|jack daniel's|johnnie walker|jim beam|levi strauss|
  estée lauder|pierre cardin|guy laroche|ben|jerry|dr martens|dr. martens`
    .split('|')
    .map((b) => b.trim()),
)
