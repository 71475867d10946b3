// bench/data.ts: the benchmark collection and deterministic objects for it
export const COLLECTION = {
  name: 'people',
  type: 'PERSONS',
  properties: [
    { name: 'ssn', data_type_name: 'SSN', is_unique: true },
    { name: 'email', data_type_name: 'EMAIL', is_index: true },
    { name: 'name', data_type_name: 'NAME', is_substring_index: true },
    { name: 'age', data_type_name: 'INTEGER', is_encrypted: false },
    { name: 'city', data_type_name: 'STRING', is_encrypted: false },
  ],
}

const FIRST = [
  'James',
  'Mary',
  'John',
  'Patricia',
  'Robert',
  'Jennifer',
  'Michael',
  'Linda',
  'William',
  'Elizabeth',
  'David',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Daniel',
  'Nancy',
  'Matthew',
  'Lisa',
  'Anthony',
  'Betty',
]
export const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
]
const CITIES = ['Paris', 'Berlin', 'Madrid', 'Rome', 'Vienna', 'Prague', 'Lisbon', 'Dublin']

/** A valid SSN unique for each i below 89,000,000: area 100+, group 01–99, serial 0001–9999. */
export function ssnOf(i: number): string {
  const serial = (i % 9999) + 1
  const group = (Math.floor(i / 9999) % 99) + 1
  const area = 100 + Math.floor(i / (9999 * 99))
  return `${area}-${String(group).padStart(2, '0')}-${String(serial).padStart(4, '0')}`
}

export function personOf(i: number) {
  return {
    ssn: ssnOf(i),
    email: `user${i}@example${i % 100}.com`,
    name: `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`,
    age: i % 90,
    city: CITIES[i % CITIES.length],
  }
}

export function batchOf(start: number, size: number) {
  return Array.from({ length: size }, (_, k) => personOf(start + k))
}
