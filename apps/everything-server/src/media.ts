/**
 * Small binary fixtures for the content-type tools: a 1×1 PNG and a short generated WAV tone,
 * both base64 encoded as MCP image/audio content and blob resources expect.
 */

/** A 1×1 opaque red PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/**
 * A RIFF/WAVE file: 16-bit mono PCM, 8 kHz, `durationMs` of a 440 Hz sine tone. Written with a
 * `DataView` (no Node `Buffer`), so the fixtures also load in a Worker (`worker.ts`).
 */
export function sineWav(durationMs = 50, sampleRate = 8000): Uint8Array {
  const samples = Math.round((sampleRate * durationMs) / 1000);
  const dataBytes = samples * 2;
  const wav = new Uint8Array(44 + dataBytes);
  const view = new DataView(wav.buffer);
  const ascii = (text: string, offset: number): void => {
    for (let i = 0; i < text.length; i += 1) wav[offset + i] = text.charCodeAt(i);
  };
  ascii('RIFF', 0);
  view.setUint32(4, 36 + dataBytes, true);
  ascii('WAVE', 8);
  ascii('fmt ', 12);
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii('data', 36);
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples; i += 1) {
    view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 440 * i) / sampleRate) * 8000), true);
  }
  return wav;
}

/** `bytes` as base64 (`btoa` over a binary string: Node and Workers alike). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const WAV_BASE64 = toBase64(sineWav());
