package dev.jaxc.frontend;

/**
 * The text a parse read, with its name (usually the file path). Spans in the parsed IR and in
 * errors are offsets into {@link #text()}. {@link #of} removes ANSI colour codes (and a leading
 * byte-order mark) first, so {@code text()} is the cleaned text, not the raw input: render
 * diagnostics with the {@code Source} the parse used ({@link JaxprParser#read} gives it for files).
 */
public record Source(String name, String text) {
  public Source {
    java.util.Objects.requireNonNull(name);
    java.util.Objects.requireNonNull(text);
  }

  /** A source for raw printed text: ANSI escape sequences and a leading BOM removed. */
  public static Source of(String name, String rawText) {
    return new Source(name, TextCleaner.clean(rawText));
  }

  /** 1-based line of a character offset. */
  public int lineOf(int offset) {
    return new LineIndex(text).lineOf(offset);
  }

  /** 1-based column (in characters; a tab counts as one) of a character offset. */
  public int colOf(int offset) {
    return new LineIndex(text).colOf(offset);
  }

  /** The text of a 1-based line without its line break; empty past the last line. */
  public String lineText(int line) {
    // Scans only up to the line (an error in the first line of 50 MB reads one line).
    if (line < 1) return "";
    int start = 0;
    for (int l = 1; l < line; l++) {
      int nl = text.indexOf('\n', start);
      if (nl < 0) return "";
      start = nl + 1;
    }
    int end = text.indexOf('\n', start);
    if (end < 0) end = text.length();
    if (end > start && text.charAt(end - 1) == '\r') end--;
    return text.substring(start, end);
  }

  public int lineCount() {
    return new LineIndex(text).lineCount();
  }
}
