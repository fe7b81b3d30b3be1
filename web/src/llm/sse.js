// Server-sent events (text/event-stream) parser over a byte stream, per the WHATWG HTML spec's
// "event stream interpretation": lines end in \n, \r\n or \r; "data:" lines join with \n; a blank
// line dispatches; lines starting with ":" are comments. Bytes are decoded as UTF-8 incrementally,
// so a multi-byte character split across network chunks survives.

/**
 * Yields {event, data, id} for each dispatched event of a ReadableStream<Uint8Array> (or any async
 * iterable of Uint8Array). At the end of the stream an unterminated event is NOT dispatched (the spec
 * discards it); `state.incomplete` tells the caller the stream ended mid-event.
 * @param {ReadableStream<Uint8Array>|AsyncIterable<Uint8Array>} body
 * @param {{incomplete?: boolean}} [state] receives `incomplete = true` when bytes were left over
 * @returns {AsyncGenerator<{event: string, data: string, id: string|undefined}>}
 */
export async function* parseSse(body, state = {}) {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data = [];
  let event = '';
  let id;
  let sawField = false;
  const iterable = typeof body[Symbol.asyncIterator] === 'function' ? body : readerIterable(body);
  const lines = function* (final) {
    // Split the buffer into complete lines; keep the unterminated rest.
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c === 10 || c === 13) {
        // A \r at the very end may be the first half of \r\n: wait for more bytes unless final.
        if (c === 13 && i === buffer.length - 1 && !final) break;
        yield buffer.slice(start, i);
        if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
      }
    }
    buffer = buffer.slice(start);
  };
  const handle = function* (line) {
    if (line === '') {
      if (sawField && data.length > 0) yield { event: event || 'message', data: data.join('\n'), id };
      data = [];
      event = '';
      sawField = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    sawField = true;
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  };
  for await (const chunk of iterable) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) yield* handle(line);
  }
  buffer += decoder.decode();
  for (const line of lines(true)) yield* handle(line);
  state.incomplete = buffer.length > 0 || sawField;
}

/** The chunks of a ReadableStream; stopping early (break, throw) cancels the stream. @internal */
export async function* readerIterable(stream) {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      yield value;
    }
  } finally {
    // A consumer that stops early (end marker seen, error) cancels the body so the connection is freed,
    // as for-await over a ReadableStream does by itself.
    if (ended) reader.releaseLock();
    else await reader.cancel().catch(() => {});
  }
}
