import { describe, expect, it } from 'vitest';
import { parseWorkerExecArgv } from './sandbox';

describe('parseWorkerExecArgv', () => {
  it("leaves out tsx's loader as the tsx command puts it on node's command line", () => {
    expect(
      parseWorkerExecArgv([
        '--require',
        '/app/node_modules/tsx/dist/preflight.cjs',
        '--import',
        'file:///app/node_modules/tsx/dist/loader.mjs',
      ]),
    ).toEqual([]);
    expect(
      parseWorkerExecArgv([
        '--import=file:///app/node_modules/tsx/dist/loader.mjs',
        '-r',
        'C:\\app\\node_modules\\tsx\\dist\\preflight.cjs',
      ]),
    ).toEqual([]);
  });

  it('keeps every other option, in order, with its value', () => {
    const argv = [
      '--no-warnings',
      '--require',
      '/app/node_modules/tsx/dist/preflight.cjs',
      '--import',
      'file:///app/instrument.mjs',
      '--conditions',
      'tsx',
      '--enable-source-maps',
    ];
    expect(parseWorkerExecArgv(argv)).toEqual([
      '--no-warnings',
      '--import',
      'file:///app/instrument.mjs',
      '--conditions',
      'tsx',
      '--enable-source-maps',
    ]);
    expect(parseWorkerExecArgv([])).toEqual([]);
    // a trailing --import without a value is kept as it is (Node reports it, not us)
    expect(parseWorkerExecArgv(['--import'])).toEqual(['--import']);
  });
});
