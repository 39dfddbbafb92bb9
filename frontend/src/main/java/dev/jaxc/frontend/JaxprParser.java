package dev.jaxc.frontend;

import dev.jaxc.ir.Jaxpr;
import dev.jaxc.ir.Program;
import dev.jaxc.ir.diag.JaxcException;
import dev.jaxc.ir.diag.Span;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads printed jaxprs (JAX 0.4.1 – 0.10.2, see {@code jaxpr-text-format.md}) into the IR. Every
 * error is a {@link JaxcException} whose span points at the offending text. Thread-safe: each
 * call works on its own state.
 *
 * <p>To render errors, keep the {@link Source} the parse read: {@link #read(Path)} then {@link
 * #parse(Source)} (spans are offsets into {@link Source#text()}, which has ANSI colour codes
 * removed).
 */
public final class JaxprParser {
  /** The largest input accepted, in bytes (or characters, for text given as a string). */
  public static final long MAX_INPUT_BYTES = 64L << 20;

  private static final long MIB = 1L << 20;

  private JaxprParser() {}

  /** Parses a whole printout: optional shared {@code let NAME = {…} in} lines, then the jaxpr. */
  public static Program parse(String sourceName, String text) {
    return parse(Source.of(sourceName, text));
  }

  public static Program parse(Source source) {
    String text = source.text();
    if (text.length() > MAX_INPUT_BYTES) throw tooLarge(text.length());
    Lexer lx = new Lexer(text);
    checkText(lx);
    Jaxpr main = new JaxprReader(lx).program();
    return new Program(source.name(), main);
  }

  /** Reads the file (size-limited, UTF-8) and parses it. */
  public static Program parse(Path file) throws IOException {
    return parse(read(file));
  }

  /**
   * Reads a file as a {@link Source}: at most {@link #MAX_INPUT_BYTES} (checked before reading),
   * strict UTF-8, ANSI colour codes removed.
   */
  public static Source read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_INPUT_BYTES) throw tooLarge(size);
    byte[] bytes = Files.readAllBytes(file);
    // The usual case, ASCII without colour codes, needs no decoding or cleaning: one copy.
    if (isPlainAscii(bytes)) return new Source(file.toString(), new String(bytes, StandardCharsets.ISO_8859_1));
    return Source.of(file.toString(), decode(bytes));
  }

  private static boolean isPlainAscii(byte[] bytes) {
    for (byte b : bytes) if (b < 0 || b == 0x1b) return false;
    return true;
  }

  private static JaxcException tooLarge(long size) {
    long mib = (size + MIB - 1) / MIB;
    return new JaxcException(
        "input is " + mib + " MiB; jaxc reads at most " + MAX_INPUT_BYTES / MIB + " MiB",
        new Span(0, 0, 1, 1));
  }

  private static String decode(byte[] bytes) {
    if (isAscii(bytes)) return new String(bytes, StandardCharsets.ISO_8859_1);  // one compact copy
    CharsetDecoder dec =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = dec.decode(in, out, true);
    if (r.isOverflow()) throw new IllegalStateException("UTF-8 decoding overflowed");
    if (r.isError()) {
      String before = out.flip().toString();
      int bad = bytes[in.position()] & 0xff;
      Span at = new LineIndex(before).span(before.length(), before.length() + 1);
      throw new JaxcException(
          String.format("input is not jaxpr text: invalid UTF-8 byte 0x%02x", bad), at);
    }
    dec.flush(out);
    return out.flip().toString();
  }

  private static boolean isAscii(byte[] bytes) {
    for (byte b : bytes) if (b < 0) return false;
    return true;
  }

  /** Rejects binary input: control characters other than tab and line breaks. */
  private static void checkText(Lexer lx) {
    int i = lx.firstControl();
    if (i >= 0) {
      throw lx.error(String.format("input is not jaxpr text: unexpected byte 0x%02x", (int) lx.text.charAt(i)), i, i + 1);
    }
  }
}
