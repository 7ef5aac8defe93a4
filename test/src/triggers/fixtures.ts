import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { TriggerError } from '../../../src/validation/trigger-error.ts';

export const RECEIVED_AT = new Date('2024-05-01T12:00:00Z');
export const EDGE = { receivedAt: RECEIVED_AT };

export function fixtureText(name: string): string {
  return readFileSync(new URL(`../../fixtures/triggers/${name}`, import.meta.url), 'utf8');
}

/** A fresh copy each time, so a test may change it. */
export function fixtureJson<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fixtureText(name)) as T;
}

/** A form-encoded fixture decoded the way the edge decodes a request body. */
export function fixtureForm(name: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(fixtureText(name)));
}

/** Runs `parse` and returns the TriggerError it must throw. */
export function triggerErrorOf(parse: () => unknown): TriggerError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(TriggerError);
    return error as TriggerError;
  }
  throw new Error('expected a TriggerError, but parsing succeeded');
}

/** A capture of test/fixtures/triggers/amp/ (see its manifest) as sent, gunzipped when stored gzipped. */
export function ampCaptureText(file: string): string {
  const bytes = readFileSync(new URL(`../../fixtures/triggers/amp/${file}`, import.meta.url));
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

export function ampCapture<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(ampCaptureText(file)) as T;
}

export interface AmpCaptureEntry {
  file: string;
  scenario: 'single' | 'grouped' | 'quote' | 'big';
  via: 'webhook' | 'sns-json' | 'sns-text';
  status: 'firing' | 'resolved';
}

/** Every capture the kit (scripts/capture-alerts) wrote. */
export const AMP_CAPTURES = ampCapture<{ captures: AmpCaptureEntry[] }>('manifest.json').captures;
