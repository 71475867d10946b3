// bench/pii/lang-es.ts: Spanish vocabulary and templates of the evaluation set (written for it)
import { ent, t } from './build.ts'
import type { Pack } from './pack.ts'
import { digits, dni, nie, pad, words } from './values.ts'

const MESES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
]

export const ES: Pack = {
  language: 'es',
  first: words(`
    Lucía Alejandro Carmen Javier Marta Sergio Nuria Álvaro Rocío Iván Pilar Raúl Inmaculada
    Gonzalo Begoña Rubén Ainhoa Íñigo Montserrat Adrián Esperanza Joaquín Maite Borja
    Yolanda Emilio Araceli Fernando Consuelo Héctor Valentina Mateo Ximena Santiago
    Guadalupe Rodrigo Catalina Marcelo Florencia Tomás Remedios Ignacio Soledad Eduardo
    Amparo Leire Unai Itziar Jordi Nerea`),
  last: words(`
    García Fernández Martínez Sánchez Gómez Ruiz Díaz Moreno Muñoz Álvarez Romero Navarro
    Torres Domínguez Vázquez Ramos Gil Serrano Blanco Molina Castro Ortega Rubio Marín Sanz
    Iglesias Medina Garrido Cortés Castillo Santos Lozano Guerrero Cano Prieto Méndez Cruz
    Calvo Gallego Vidal León Herrera Peña Flores Cabrera Campos Vega Fuentes Carrasco
    Aguirre Etxeberria Olabarrieta Pujol Ferrer`),
  fullName: (g) => {
    const style = g.int(0, 9)
    if (style <= 4) return `${g.first()} ${g.last()} ${g.last()}`
    if (style === 5) return `${g.first()} ${g.first()} ${g.last()}`
    if (style === 6)
      return `${g.pick(['Sr.', 'Sra.', 'D.', 'Dña.', 'don', 'doña'])} ${g.first()} ${g.last()}`
    if (style === 7) return `${g.first()} de la ${g.pick(['Fuente', 'Torre', 'Cruz', 'Rosa'])}`
    return `${g.first()} ${g.last()}`
  },
  address: (g) => {
    const name = g.pick([
      'Alcalá',
      'de la Princesa',
      'Mayor',
      'del Carmen',
      'de Toledo',
      'San Vicente',
      'de las Flores',
      'Real',
      'de Goya',
      'Colón',
      'de la Constitución',
      'del Pilar',
      'Sierpes',
      'de Urgell',
    ])
    const kind = g.pick([
      'Calle',
      'Calle',
      'C/',
      'Avenida',
      'Avda.',
      'Paseo',
      'Plaza',
      'Ronda',
      'Camino',
    ])
    const floor = g.chance(0.6)
      ? `, ${g.int(1, 9)}º ${g.pick(['A', 'B', 'C', 'D', 'izda.', 'dcha.'])}`
      : ''
    const [cp, city] = g.pick([
      ['28009', 'Madrid'],
      ['08011', 'Barcelona'],
      ['41004', 'Sevilla'],
      ['46002', 'Valencia'],
      ['48001', 'Bilbao'],
      ['50001', 'Zaragoza'],
      ['29015', 'Málaga'],
      ['15003', 'A Coruña'],
    ] as const)
    const num = g.chance(0.8) ? ` ${g.int(1, 250)}` : `, nº ${g.int(1, 250)}`
    return g.chance(0.7)
      ? `${kind} ${name}${num}${floor}, ${cp} ${city}`
      : `${kind} ${name}${num}${floor} (${city})`
  },
  cities: words(`
    Madrid Barcelona Sevilla Valencia Bilbao Zaragoza Málaga Granada Salamanca`),
  companies: [
    'Grupo Alborada',
    'Transportes Levante',
    'Seguros Atalaya',
    'Banco Santander',
    'Telefónica',
    'Mercadona',
    'Iberdrola',
    'Construcciones Ribera',
    'Farmacias Salud Plus',
    'Inditex',
    'Renfe',
    'Correos',
  ],
  products: [
    'iPhone 14',
    'Galaxy A54',
    'Seat Ibiza',
    'Zara Home',
    'Thermomix TM6',
    'Roomba i7',
    'Mercedes-Benz Clase A',
    'Windows 10',
    'Movistar Fusión',
    'Chupa Chups',
    'Carolina Herrera 212',
    'Loewe Puzzle',
  ],
  figures: [
    ['Pedro Sánchez', 'el presidente del Gobierno'],
    ['Rafael Nadal', 'el tenista'],
    ['Shakira', 'la cantante'],
    ['Felipe VI', 'el rey'],
    ['Lionel Messi', 'el futbolista'],
    ['Isabel Díaz Ayuso', 'la presidenta de la Comunidad de Madrid'],
    ['Penélope Cruz', 'la actriz'],
    ['Amancio Ortega', 'el fundador de Inditex'],
    ['Alberto Núñez Feijóo', 'el líder del PP'],
  ],
  months: MESES,
  dob: (g, d) =>
    g.pick([
      `${d.d} de ${MESES[d.m - 1]} de ${d.y}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${pad(d.d, 2)}-${pad(d.m, 2)}-${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
      `${d.d}/${d.m}/${d.y}`,
    ]),
  date: (g, d) =>
    g.pick([
      `${d.d} de ${MESES[d.m - 1]} de ${d.y}`,
      `${pad(d.d, 2)}/${pad(d.m, 2)}/${d.y}`,
      `${d.y}-${pad(d.m, 2)}-${pad(d.d, 2)}`,
    ]),
  mailDomains: words(`
    gmail.com hotmail.es yahoo.es outlook.es telefonica.net icloud.com gmail.com`),
  roleMailboxes: words(`
    soporte info contacto ventas facturacion atencionalcliente noreply rrhh pedidos admin`),
  phoneCountries: ['ES', 'ES', 'ES', 'BR'],
  passportCountry: 'ES',
  nationalIds: [
    (g, valid) => (valid ? ent('ES_NIF', dni(g.rng)) : dni(g.rng, false)),
    (g, valid) => (valid ? ent('ES_NIF', nie(g.rng)) : nie(g.rng, false)),
  ],
  pii: [
    { id: 'es-intro', make: (g) => t`Hola, me llamo ${g.name()} y no puedo acceder a mi cuenta.` },
    {
      id: 'es-reach',
      make: (g) => t`Podéis escribirme a ${g.email()} o llamarme al ${g.phone()}.`,
    },
    { id: 'es-callback', make: (g) => t`Por favor, llámenme al ${g.phone()} por la tarde.` },
    { id: 'es-ship', make: (g) => t`Envíen el pedido a ${g.address()}.` },
    { id: 'es-moved', make: (g) => t`Mi nueva dirección es ${g.address()}` },
    { id: 'es-dob', make: (g) => t`Fecha de nacimiento: ${g.dob()}` },
    { id: 'es-born', make: (g) => t`El titular nació el ${g.dob()} en ${g.city()}.` },
    { id: 'es-dni', make: (g) => t`Mi DNI es ${ent('ES_NIF', dni(g.rng))}.` },
    { id: 'es-nie', make: (g) => t`NIE: ${ent('ES_NIF', nie(g.rng))}` },
    {
      id: 'es-card',
      make: (g) =>
        t`Cárguenlo a mi tarjeta ${g.card()}, caduca en 0${g.int(1, 9)}/2${g.int(6, 9)}.`,
    },
    { id: 'es-iban', make: (g) => t`Hagan la devolución a la cuenta ${g.iban('ES')}, por favor.` },
    { id: 'es-ip', make: (g) => t`Inicio de sesión sospechoso desde la IP ${g.ip()}.` },
    { id: 'es-url', make: (g) => t`Este es mi perfil: ${g.profileUrl()}` },
    { id: 'es-passport', make: (g) => t`Número de pasaporte: ${g.passport()}` },
    { id: 'es-firma', make: (g) => t`Un saludo,\n${g.name()}` },
    { id: 'es-hola', make: (g) => t`Hola ${g.firstName()}, ya hemos tramitado el reembolso.` },
    { id: 'es-esposa', make: (g) => t`Pongo en copia a mi marido, ${g.name()} (${g.email()}).` },
    {
      id: 'es-hable',
      make: (g) => t`Hablé ayer con ${g.name()} y me dijo que el paquete se había perdido.`,
    },
    { id: 'es-contacto', make: (g) => t`Persona de contacto: ${g.name()}, tel. ${g.phone('ES')}` },
    { id: 'es-ssn', make: (g) => t`Vivo en Miami y mi número de seguro social es ${g.ssn()}.` },
    { id: 'es-wa', make: (g) => t`escríbeme por whatsapp al ${g.phone('ES')} porfa` },
    {
      id: 'es-paciente',
      make: (g) => t`La paciente ${g.name()}, nacida el ${g.dob()}, acude a consulta.`,
    },
  ],
  clean: [
    {
      id: 'es-c-order',
      make: (g) => t`El pedido ${g.orderId()} salió el ${g.date()} y llegará en 48 horas.`,
    },
    { id: 'es-c-support', make: (g) => t`Si el problema continúa, escriba a ${g.roleEmail()}.` },
    {
      id: 'es-c-product',
      make: (g) => t`Mi ${g.product()} se reinicia solo desde la última actualización.`,
    },
    {
      id: 'es-c-version',
      make: (g) => t`Actualizamos a la versión ${g.version()} y el error desapareció.`,
    },
    {
      id: 'es-c-figure',
      make: (g) => {
        const [n, r] = g.figure()
        return t`${r} ${n} visitó ${g.city()} el martes.`
      },
    },
    {
      id: 'es-c-figure2',
      make: (g) => {
        const [n] = g.figure()
        return t`Según ${n}, el acuerdo se firmará en otoño.`
      },
    },
    {
      id: 'es-c-company',
      make: (g) => t`${g.company()} ha presentado resultados récord este trimestre.`,
    },
    { id: 'es-c-masked', make: (g) => t`El pago con la tarjeta ${g.maskedCard()} fue aprobado.` },
    {
      id: 'es-c-badcard',
      make: (g) => t`El número de referencia ${g.badCard()} no corresponde a ninguna tarjeta.`,
    },
    {
      id: 'es-c-baddni',
      make: (g) => t`El DNI ${dni(g.rng, false)} no es válido: la letra no coincide.`,
    },
    {
      id: 'es-c-badiban',
      make: (g) => t`La cuenta ${g.badIban('ES')} no ha superado la validación.`,
    },
    {
      id: 'es-c-private',
      make: (g) => t`El servidor escucha en ${g.privateIp()} puerto ${g.int(1000, 9999)}.`,
    },
    { id: 'es-c-uuid', make: (g) => t`La petición ${g.uuid()} devolvió un error 500.` },
    { id: 'es-c-hash', make: (g) => t`El commit ${g.sha()} corrige el fallo.` },
    { id: 'es-c-date', make: (g) => t`La factura vence el ${g.date()}.` },
    { id: 'es-c-ts', make: (g) => t`Copia de seguridad finalizada: ${g.timestamp()}` },
    {
      id: 'es-c-place',
      make: (g) => t`Nuestra oficina de ${g.city()} cierra el lunes por festivo.`,
    },
    {
      id: 'es-c-street',
      make: (g) =>
        t`La cabalgata recorre la ${g.pick(['Gran Vía', 'calle Alcalá', 'Castellana', 'Rambla'])} esta tarde.`,
    },
    { id: 'es-c-url', make: (g) => t`Más información en ${g.plainUrl()}` },
    {
      id: 'es-c-generic',
      make: (g) =>
        t`${g.pick(['Gracias por su paciencia.', 'La reunión se ha movido a la sala 3.', '¿Puede reenviar el PDF?', 'Perfecto, ya funciona.', 'Cerramos la incidencia como resuelta.', 'Revisaremos su solicitud en 48 horas.', 'Queda pendiente la firma del contrato.'])}`,
    },
    {
      id: 'es-c-qty',
      make: (g) =>
        t`Pedimos ${g.int(2, 500)} unidades a ${g.int(3, 900)},${digits(g.rng, 2)} € cada una.`,
    },
    { id: 'es-c-tracking', make: (g) => t`Número de seguimiento ${digits(g.rng, 12)}.` },
    {
      id: 'es-c-role',
      make: (g) =>
        t`Estimado cliente, su consulta ha sido asignada al ${g.pick(['departamento de facturación', 'equipo de soporte', 'gestor de cuentas'])}.`,
    },
  ],
  frames: [
    {
      id: 'es-email',
      make: (g) =>
        t`Asunto: ${g.pick(['Problema con mi pedido', 'Cuenta bloqueada', 'Solicitud de reembolso', 'Duda sobre la factura'])}\n\nBuenos días:\n\n`,
    },
    {
      id: 'es-ticket',
      make: (g) =>
        t`Incidencia ${g.orderId()} | Prioridad: ${g.pick(['Alta', 'Baja', 'Normal'])} | Abierta ${g.timestamp()}\n`,
    },
    {
      id: 'es-chat',
      make: (g) =>
        t`[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] agente: ¿En qué puedo ayudarle?\n[${pad(g.int(8, 18), 2)}:${pad(g.int(0, 59), 2)}] cliente: `,
    },
  ],
}
