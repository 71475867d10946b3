// src/core/analysis/recognizers/recognizers.test.ts: what the built-in detector finds in written forms of each entity, and what it leaves
import { describe, expect, it } from 'vitest'
import { createLocalDetector } from '../local-detector.ts'

const detector = createLocalDetector()

async function found(text: string): Promise<string[]> {
  const detections = await detector.detect(text, { language: undefined })
  return detections
    .filter((d) => d.score >= 0.5)
    .map((d) => `${d.type} ${text.slice(d.begin, d.end)}`)
}

describe('built-in detector', () => {
  it.each([
    ['Call +44 (0)20 7946 0958 today', ['PHONE +44 (0)20 7946 0958']],
    ['Tel 030/1234567', ['PHONE 030/1234567']],
    ['DOB: 14-Mar-1987', ['DATE_OF_BIRTH 14-Mar-1987']],
    ['born on the 14th of March 1987', ['DATE_OF_BIRTH 14th of March 1987']],
    ['Der Versicherte ist am 21.06.1979 in Berlin geboren.', ['DATE_OF_BIRTH 21.06.1979']],
    ['NOTE: MARIA GARCIA LOPEZ called', ['NAME MARIA GARCIA LOPEZ']],
    ['see linkedin.com/in/jane-doe-123 for my cv', ['URL linkedin.com/in/jane-doe-123']],
    ['DNI: 12.345.678-Z', ['ES_NIF 12.345.678-Z']],
    ['Contact person: Zhang Wei', ['NAME Zhang Wei']],
    ['The patient, Olusegun Adeyemi, was discharged.', ['NAME Olusegun Adeyemi']],
    ['Nathalie Le Goff a appelé.', ['NAME Nathalie Le Goff']],
    ['Sehr geehrter Herr Dr. Schulze,', ['NAME Herr Dr. Schulze']],
    ['Max Mustermann, Smith, John', ['NAME Max Mustermann', 'NAME Smith, John']],
    ['Jean-Luc, pouvez-vous relire le document ?', ['NAME Jean-Luc']],
    ['Gracias Lucía por la ayuda', ['NAME Lucía']],
    ['Herr Thomas Müller hat angerufen.', ['NAME Herr Thomas Müller']],
    ['Call me on +44 7700 900123 tomorrow', ['PHONE +44 7700 900123']],
    ['Carlos: vale, voy para allá', ['NAME Carlos']],
    ['La Dra. Beatriz Olmedo atenderá mañana.', ['NAME Dra. Beatriz Olmedo']],
    ['Telefon: 089 / 123 456 78', ['PHONE 089 / 123 456 78']],
    [
      'Send it to 14 Rosebery Crescent, Edinburgh EH12 5JY',
      ['ADDRESS 14 Rosebery Crescent, Edinburgh EH12 5JY'],
    ],
    ['Yesterday Fatima wrote to us again.', ['NAME Fatima']],
    ['Chloé a appelé ce matin.', ['NAME Chloé']],
    ['cc: Hiroko Tanabe', ['NAME Hiroko Tanabe']],
    ['Grüße an Familie Okonkwo aus Bremen', ['NAME Familie Okonkwo']],
    ['SSN 123-45-6789 on the order form', ['SSN 123-45-6789']],
  ])('finds the PII in %j', async (text, expected) => {
    expect(await found(text)).toEqual(expected)
  })

  it.each([
    'Boston Dynamics released a new robot.',
    'The Washington Post reported on Monday.',
    'Meeting with Satya Nadella next week.',
    'My Galaxy S23 keeps restarting; so does the Model Y.',
    'Our Madrid office and the warehouse in Sevilla are closed.',
    'La Comisión aprobó el plan de Iberdrola en Castilla y León; el Real Madrid ganó.',
    'Perfecto, ya funciona. Alexander von Humboldt Gymnasium.',
    'INFO auth: login ok host=10.2.3.4 build=4.12.0.1',
    'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120.0.0.0 Safari/537.36',
    'route 81.2.69.0/24 via 81.2.69.255',
    'Due 05/06/2024, order ORD-2024-118822, tracking 1Z999AA10123456784',
    'Test SSN 666-12-3456 and card 4111 1111 1111 1112 were refused.',
    'Write to support@acme.com or kundenservice@shop.de.',
    'Order 123-45-6789 shipped',
    'Goldman Sachs said profits rose; Red Hat joined the foundation.',
    'Invoice 512-44-7391 is overdue.',
    'Thomas Müller scored twice last night.',
    'Freephone 0800 123 4567 for sales questions',
    'Kostenlose Hotline: 0800 1234567',
  ])('finds nothing in %j', async (text) => {
    expect(await found(text)).toEqual([])
  })
})
