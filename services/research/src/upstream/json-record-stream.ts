/**
 * Streams the records of a large JSON document without ever holding the whole document, as text
 * or as objects: `{"status":"success","data":[{…},{…},…]}` is scanned chunk by chunk, each element
 * of the `arrayKey` array is `JSON.parse`d on its own and handed to `onRecord`, and only the other
 * (small) top-level members are kept and returned as `rest`. A 20,000-pool DefiLlama `/pools`
 * body (~15 MB of text, several times that as a parsed tree) then costs one element at a time.
 *
 * Throws SyntaxError on malformed JSON. When the document is not an object or `arrayKey` is not
 * an array, nothing is streamed and `rest` is the whole parsed document, so the caller's usual
 * shape checks (and their error messages) still apply.
 */
export async function streamJsonRecords(chunks: AsyncIterable<string>, arrayKey: string, onRecord: (value: unknown) => void): Promise<{ rest: unknown; streamed: boolean }> {
  const QUOTE = 34;
  const BACKSLASH = 92;
  let depth = 0;
  let inString = false;
  let escape = false;
  /** Top-level text outside the streamed array (kept: small), or the whole document if it is not an object. */
  const outside: string[] = [];
  let topIsObject: boolean | null = null;
  let inRecords = false;
  let streamed = false;
  /** Text of the element being read (inside the array), across chunk boundaries. */
  let element: string[] = [];
  let elementStarted = false;
  /** The last depth-1 string seen (the candidate member key) and whether ':' followed it. */
  let lastKey: string | null = null;
  let keyStart = -1;
  let keyParts: string[] = [];
  let afterColonForKey = false;

  const flushElement = () => {
    const text = element.join('').trim();
    element = [];
    elementStarted = false;
    if (text.length) onRecord(JSON.parse(text));
  };

  for await (const chunk of chunks) {
    let segStart = 0; // start of the not-yet-copied part of this chunk (outside or element)
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (inString) {
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === QUOTE) {
          inString = false;
          if (keyStart !== -1) {
            keyParts.push(chunk.slice(keyStart, i));
            lastKey = keyParts.join('');
            keyParts = [];
            keyStart = -1;
          }
        }
        continue;
      }
      if (inRecords) {
        // Inside the streamed array: element boundaries are ',' and the closing ']' at depth 2.
        if (c === QUOTE) {
          inString = true;
          if (!elementStarted) elementStarted = true;
        } else if (c === 123 || c === 91) {
          depth++;
          elementStarted = true;
        } else if (c === 125 || c === 93) {
          if (depth === 2 && c === 93) {
            element.push(chunk.slice(segStart, i));
            flushElement();
            inRecords = false;
            depth--;
            outside.push('[]');
            segStart = i + 1;
            continue;
          }
          depth--;
        } else if (c === 44 && depth === 2) {
          element.push(chunk.slice(segStart, i));
          flushElement();
          segStart = i + 1;
        } else if (c > 32) elementStarted = true;
        continue;
      }
      // Outside the streamed array.
      if (c === QUOTE) {
        inString = true;
        if (depth === 1 && topIsObject && !afterColonForKey) {
          keyStart = i + 1;
          keyParts = [];
        }
        continue;
      }
      if (c === 123 || c === 91) {
        if (topIsObject === null) topIsObject = c === 123;
        if (depth === 1 && topIsObject && c === 91 && afterColonForKey && lastKey === arrayKey && !streamed) {
          outside.push(chunk.slice(segStart, i));
          segStart = i + 1;
          inRecords = true;
          streamed = true;
          depth++;
          afterColonForKey = false;
          continue;
        }
        depth++;
        if (depth === 2) afterColonForKey = false;
      } else if (c === 125 || c === 93) depth--;
      else if (c === 58 && depth === 1) afterColonForKey = true;
      else if (c === 44 && depth === 1) {
        afterColonForKey = false;
        lastKey = null;
      } else if (c > 32 && topIsObject === null) topIsObject = false;
    }
    if (inString && keyStart !== -1) {
      keyParts.push(chunk.slice(keyStart));
      keyStart = 0;
    }
    if (inRecords) element.push(chunk.slice(segStart));
    else outside.push(chunk.slice(segStart));
  }
  if (inRecords || inString || depth !== 0) throw new SyntaxError('Unexpected end of JSON input');
  const restText = outside.join('');
  return { rest: JSON.parse(restText), streamed };
}

/** UTF-8 body stream → string chunks. */
export async function* textChunks(body: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for await (const bytes of body) {
    const s = decoder.decode(bytes, { stream: true });
    if (s) yield s;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}
