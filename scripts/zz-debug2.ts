import { readFileSync } from 'node:fs';
console.log('ok');
