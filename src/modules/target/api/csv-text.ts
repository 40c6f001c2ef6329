import { Readable, Transform, TransformCallback } from 'stream';
import { TextDecoder } from 'util';
import { UnsupportedMediaTypeException } from '@nestjs/common';
import { item, pydantic } from '../../../common/validation/pydantic-errors.js';
import { RequestValidationError } from '../../../common/validation/request-validation.error.js';

/**
 * The text of a CSV upload. csv-parse reads the bytes as latin1 (one character per byte, so nothing
 * is lost and its record-size cap counts bytes), and each record is then decoded in the file's
 * encoding with a fatal decoder: bytes that are not valid text are found in the record that holds
 * them, and the import refused naming its row, instead of being stored as U+FFFD.
 *
 * The encoding: a byte order mark (UTF-8, UTF-16LE, UTF-16BE), else the Content-Type's `charset`,
 * else UTF-8. UTF-16 is not ASCII-compatible, so it is transcoded to UTF-8 before parsing.
 */
export class CsvText {
  private decoder: TextDecoder;

  private constructor(declared: TextDecoder) {
    this.decoder = declared;
  }

  /** 415 for a charset no decoder knows; `contentType` is the request's Content-Type header. */
  static fromContentType(contentType: string | undefined): CsvText {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
    try {
      return new CsvText(new TextDecoder(charset ?? 'utf-8', { fatal: true }));
    } catch {
      throw new UnsupportedMediaTypeException(
        `Unsupported Media Type: charset ${charset} is not supported; send UTF-8 or name one such as windows-1252`,
      );
    }
  }

  /** The encoding the fields are in, as the WHATWG Encoding standard names it (`utf-8`, `windows-1252`). */
  get encoding(): string {
    return this.decoder.encoding;
  }

  /** The upload's bytes for the parser: the BOM dropped, UTF-16 transcoded to UTF-8. */
  bytes(body: Readable): Readable {
    return body.pipe(new BomSniffer(this));
  }

  /** The record's fields in the file's encoding; null when a field holds bytes that are not text. */
  decode(record: string[]): string[] | null {
    try {
      // Nearly every field is ASCII, which reads the same in latin1 and in every encoding we take.
      return record.map((field) =>
        ASCII.test(field) ? field : this.decoder.decode(Buffer.from(field, 'latin1')),
      );
    } catch {
      return null;
    }
  }

  /** The 422 for a record whose bytes are not text in the file's encoding. */
  notText(row: number, encoding = this.encoding): RequestValidationError {
    return unreadableFile(
      `row ${row} is not valid ${encoding} text: send the file in UTF-8, or name its ` +
        'encoding in the Content-Type (text/csv; charset=windows-1252)',
    );
  }

  /**
   * Called once with the first bytes: a BOM decides the encoding. Returns how many bytes the BOM
   * takes, and the decoder that transcodes the rest to UTF-8 when the file is UTF-16.
   */
  begin(head: Buffer): { skip: number; transcoder: TextDecoder | null } {
    const bom = BOMS.find((b) => b.bytes.every((byte, i) => head[i] === byte));
    if (bom !== undefined) this.decoder = new TextDecoder(bom.encoding, { fatal: true });
    const skip = bom?.bytes.length ?? 0;
    const encoding = this.decoder.encoding;
    if (encoding !== 'utf-16le' && encoding !== 'utf-16be') return { skip, transcoder: null };
    // Parsed as UTF-8 from here on.
    this.decoder = new TextDecoder('utf-8', { fatal: true });
    return { skip, transcoder: new TextDecoder(encoding, { fatal: true }) };
  }
}

/** The 422 at `["body"]` for a file that cannot be read as a whole, saying why. */
export function unreadableFile(why: string): RequestValidationError {
  return new RequestValidationError([item(pydantic.valueError(why), ['body'], null)]);
}

// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII = /^[\x00-\x7f]*$/;

/** The byte order marks, each with the encoding it declares. */
const BOMS = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** Holds the first three bytes until the BOM (if any) is known, then passes (or transcodes) the rest. */
class BomSniffer extends Transform {
  private head: Buffer | null = Buffer.alloc(0);
  private transcoder: TextDecoder | null = null;
  private line = 1;

  constructor(private readonly text: CsvText) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.head !== null) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < 3) return done();
      chunk = this.start(this.head);
    }
    this.send(chunk, false, done);
  }

  override _flush(done: TransformCallback): void {
    const rest = this.head !== null ? this.start(this.head) : Buffer.alloc(0);
    this.send(rest, true, done);
  }

  private start(head: Buffer): Buffer {
    this.head = null;
    const { skip, transcoder } = this.text.begin(head);
    this.transcoder = transcoder;
    return head.subarray(skip);
  }

  private send(chunk: Buffer, last: boolean, done: TransformCallback): void {
    if (this.transcoder === null) return done(null, chunk);
    let text: string;
    try {
      text = this.transcoder.decode(chunk, { stream: !last });
    } catch {
      // The fields are decoded after parsing; a UTF-16 file is decoded whole before it, so the
      // nearest thing to its row is the line.
      return done(this.text.notText(this.line, this.transcoder.encoding));
    }
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) this.line++;
    done(null, Buffer.from(text, 'utf8'));
  }
}
