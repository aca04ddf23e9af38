import { fileTypeFromBuffer } from 'file-type';
import type { ContentFacts } from './contentInspector';

export type Classification = { accepted: true; mime: string } | { accepted: false };

/** Programs and packages that install or run code: never stored, whatever their name says. */
const EXECUTABLE_MIMES = new Set([
  'application/x-msdownload',
  'application/x-elf',
  'application/x-mach-binary',
  'application/java-vm',
  'application/java-archive',
  'application/wasm',
  'application/x-shockwave-flash',
  'application/x.ms.shortcut',
  'application/x-ms-regedit',
  'application/x-ft-windows-registry-hive',
  'application/vnd.ms-htmlhelp',
  'application/x-google-chrome-extension',
  'application/x-xpinstall',
  'application/vnd.android.package-archive',
  'application/x-deb',
  'application/x-rpm',
  'application/x-apple-diskimage',
  'application/x-asar',
]);

// WHATWG MIME sniffing: the tags that make a browser treat a document as HTML (case-insensitive, followed
// by a space or '>'), after leading whitespace.
const HTML_SNIFF = /^(?:<!doctype\s+html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)[\s>]/i;
const XML_DECLARATION = /^<\?xml[\s?]/i;
const SVG_ROOT = /<svg[\s>]/i;
const HTML_ROOT = /<html[\s>]|<!doctype\s+html/i;

function headText(head: Buffer): string {
  return head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
}

/** Markup documents: HTML is refused; SVG and XML only when nothing in them can run script. */
function classifyMarkup(facts: ContentFacts, text: string, fallback: string): Classification {
  const start = text.slice(0, 4096);
  if (HTML_SNIFF.test(start) || HTML_ROOT.test(start)) return { accepted: false };
  const isSvg = SVG_ROOT.test(start) && (start.startsWith('<') || XML_DECLARATION.test(start));
  if (isSvg || XML_DECLARATION.test(start)) {
    if (facts.hasActiveMarkup) return { accepted: false };
    return { accepted: true, mime: isSvg ? 'image/svg+xml' : 'application/xml' };
  }
  return { accepted: true, mime: fallback };
}

/**
 * The type of an upload from its bytes (DESIGN.md §3), never from the name or the client's header.
 * Known binary formats by magic number, minus executables; otherwise only valid UTF-8 text is accepted.
 */
export async function classifyContent(facts: ContentFacts, fileName: string): Promise<Classification> {
  const detected = await fileTypeFromBuffer(facts.head);
  if (detected) {
    if (EXECUTABLE_MIMES.has(detected.mime)) return { accepted: false };
    if (detected.mime === 'application/xml') {
      return facts.isText ? classifyMarkup(facts, headText(facts.head), 'application/xml') : { accepted: false };
    }
    return { accepted: true, mime: detected.mime };
  }
  if (!facts.isText) return { accepted: false };
  const textMime = /\.csv$/i.test(fileName) ? 'text/csv' : 'text/plain';
  return classifyMarkup(facts, headText(facts.head), textMime);
}

/** Types a browser may show in place (img/audio/video tags); everything else downloads as an attachment. */
export function isInlineMedia(mime: string): boolean {
  return /^(image|audio|video)\//.test(mime) && mime !== 'image/svg+xml';
}
