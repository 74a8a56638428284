import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { buildDocx } from '@/test/support/ingest/test-zip';

/**
 * Writes the binary documents of the fresh-documents bed (eval/fresh/documents: DOCX, PDF, XLSX) from the text
 * below, so the bed can be rebuilt without any office software: `npx tsx scripts/fresh-documents.ts`.
 */

const DIR = path.resolve(import.meta.dirname, '../eval/fresh/documents');

const MINUTES: [string | null, string][] = [
  ['Heading1', 'Riverside Allotment Society - Committee Meeting Minutes'],
  [null, 'Date: 12 October 2026, 19:00, Riverside Community Hall'],
  [null, 'Present: Helen Moss (Chair), Arjun Patel (Treasurer), Grace Obi (Secretary), Tom Reilly, Ines Duarte'],
  [null, 'Apologies: Bernard Clarke'],
  ['Heading2', '1. Minutes of the previous meeting'],
  [null, 'The minutes of the meeting of 14 September 2026 were approved without changes.'],
  ['Heading2', "2. Treasurer's report"],
  [
    null,
    'Arjun Patel reported a bank balance of £8,340 at the end of September. Plot rent income for the year was £5,600, and the water bill was £1,120.',
  ],
  ['Heading2', '3. Plot rents for 2027'],
  [
    null,
    'The committee agreed to raise the annual rent for a full plot from £60 to £65 and for a half plot from £32 to £35, starting 1 January 2027. The vote was 4 in favour and 1 against.',
  ],
  ['Heading2', '4. New shed'],
  [
    null,
    'Tom Reilly presented three quotes for a new tool shed. The committee chose the quote from Oakbridge Timber for £2,450. Tom Reilly will order the shed by 31 October.',
  ],
  ['Heading2', '5. Waiting list'],
  [null, 'Grace Obi reported that 23 people are on the waiting list for a plot.'],
  ['Heading2', '6. Any other business'],
  [null, 'Ines Duarte proposed a seed swap in March. The proposal was accepted.'],
  [null, 'The next meeting will be held on 9 November 2026 at 19:00. The meeting closed at 20:40.'],
];

const BIKE: [string | null, string][] = [
  ['Heading1', 'Velora Trek 500 Bicycle - Assembly Guide'],
  [
    null,
    'This guide explains how to finish assembling the Velora Trek 500 after unpacking. Assembly takes about 40 minutes. You need a 4 mm hex key, a 5 mm hex key, a 15 mm pedal spanner and a pump.',
  ],
  ['Heading2', 'Attaching the handlebar'],
  [null, '1. Remove the faceplate from the stem with the 4 mm hex key.'],
  [null, '2. Centre the handlebar in the stem clamp.'],
  [null, '3. Refit the faceplate and tighten the four bolts in a cross pattern to 5 Nm.'],
  ['Heading2', 'Fitting the pedals'],
  [
    null,
    'The right pedal (marked R) has a normal thread and is tightened clockwise. The left pedal (marked L) has a reverse thread and is tightened anticlockwise. Tighten both pedals to 35 Nm with the 15 mm spanner.',
  ],
  ['Heading2', 'Tyre pressure'],
  [
    null,
    'Inflate the tyres to between 3.5 and 4.5 bar (50 to 65 psi). The maximum pressure is printed on the tyre wall.',
  ],
  ['Heading2', 'Saddle height'],
  [
    null,
    'Set the saddle so that your leg is almost straight when the pedal is at its lowest point. Never raise the seat post above the minimum insertion mark.',
  ],
  ['Heading2', 'Specifications'],
  [null, 'Frame: aluminium 6061. Gears: 2 x 9 speed. Weight: 13.2 kg. Maximum rider weight: 120 kg.'],
];

const POLICY: string[][] = [
  [
    'NORTHWIND LOGISTICS - REMOTE WORK POLICY',
    'Policy number HR-014. Effective date: 1 January 2027. Owner: People Operations.',
    '',
    '1. Scope',
    'This policy applies to all permanent employees who have completed their probation period of six months.',
    'Temporary staff and contractors are not covered by this policy.',
    '',
    '2. Remote work days',
    'Eligible employees may work remotely up to three days per week. Team leads may require',
    'attendance at the office on Tuesdays for team meetings.',
    '',
    '3. Equipment',
    'The company provides a laptop, a monitor and a headset. Employees receive a one-time home office',
    'allowance of EUR 400 for a desk or chair, claimed through the expenses system within 90 days of approval.',
    '',
    '4. Internet costs',
    'Employees who work remotely at least two days per week receive an internet allowance of EUR 30 per month.',
    '',
    '5. Working from abroad',
    'Working from another country is allowed for up to 20 working days per calendar year, and only with the',
    "written approval of the employee's manager and People Operations.",
  ],
  [
    '6. How to apply',
    'Step 1: Discuss the arrangement with your manager.',
    'Step 2: Complete the Remote Work Request form in the HR portal.',
    'Step 3: Your manager approves or rejects the request within 10 working days.',
    'Step 4: People Operations confirms the arrangement by e-mail.',
    '',
    '7. Review',
    'Remote work arrangements are reviewed every 12 months. The company may end an arrangement with',
    "30 days' notice if business needs change.",
    '',
    '8. Contact',
    'Questions about this policy go to Laura Benedetti, Head of People Operations.',
  ],
];

async function timetable(file: string): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Class 7B');
  ws.addRow(['Period', 'Time', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
  const rows: string[][] = [
    ['1', '08:30-09:20', 'Mathematics', 'English', 'Science', 'Mathematics', 'History'],
    ['2', '09:25-10:15', 'English', 'Geography', 'Mathematics', 'French', 'Science'],
    ['Break', '10:15-10:35', '', '', '', '', ''],
    ['3', '10:35-11:25', 'Science', 'Mathematics', 'Art', 'English', 'Music'],
    ['4', '11:30-12:20', 'French', 'Physical Education', 'History', 'Science', 'English'],
    ['Lunch', '12:20-13:10', '', '', '', '', ''],
    ['5', '13:10-14:00', 'Geography', 'Art', 'Physical Education', 'Computing', 'Mathematics'],
    ['6', '14:05-14:55', 'Music', 'Computing', 'English', 'Drama', 'Form time'],
  ];
  for (const r of rows) ws.addRow(r);
  const staff = wb.addWorksheet('Teachers');
  staff.addRow(['Subject', 'Teacher', 'Room']);
  for (const r of [
    ['Mathematics', 'Mr. Halvorsen', 'B12'],
    ['English', 'Ms. Achterberg', 'A03'],
    ['Science', 'Dr. Nkemelu', 'Lab 2'],
    ['French', 'Mme. Laurent', 'A07'],
    ['History', 'Mr. Castellano', 'A05'],
    ['Geography', 'Ms. Yilmaz', 'A06'],
    ['Art', 'Ms. Fennimore', 'Studio 1'],
    ['Music', 'Mr. Osei', 'Music room'],
    ['Physical Education', 'Ms. Kowalczyk', 'Sports hall'],
    ['Computing', 'Mr. Varga', 'C01'],
    ['Drama', 'Ms. Rourke', 'Hall'],
  ])
    staff.addRow(r);
  await wb.xlsx.writeFile(file);
}

writeFileSync(path.join(DIR, 'allotment-minutes.docx'), buildDocx(MINUTES, { title: 'Committee Meeting Minutes' }));
writeFileSync(path.join(DIR, 'bike-assembly.docx'), buildDocx(BIKE, { title: 'Velora Trek 500 Assembly Guide' }));
writeFileSync(path.join(DIR, 'remote-work-policy.pdf'), buildTextPdf(POLICY, { title: 'Remote Work Policy' }));
await timetable(path.join(DIR, 'timetable-7b.xlsx'));
console.log('written to', DIR);
