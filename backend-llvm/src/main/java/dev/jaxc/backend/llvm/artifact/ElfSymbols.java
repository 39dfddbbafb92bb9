package dev.jaxc.backend.llvm.artifact;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The symbols of a little-endian ELF64 relocatable object: what it defines and what it imports. */
public record ElfSymbols(int machine, List<String> defined, List<String> undefined) {
  /**
   * @throws IllegalArgumentException not an ELF64 little-endian file
   * @throws IndexOutOfBoundsException a truncated one
   */
  public static ElfSymbols of(byte[] elf) {
    ByteBuffer b = ByteBuffer.wrap(elf).order(ByteOrder.LITTLE_ENDIAN);
    if (elf.length < 64 || b.getInt(0) != 0x464C457F || elf[4] != 2 || elf[5] != 1) throw new IllegalArgumentException("not ELF64 LE");
    int machine = b.getShort(18) & 0xFFFF;
    long shoff = b.getLong(0x28);
    int shentsize = b.getShort(0x3A) & 0xFFFF;
    int shnum = b.getShort(0x3C) & 0xFFFF;
    List<String> defined = new ArrayList<>();
    List<String> undefined = new ArrayList<>();
    for (int i = 0; i < shnum; i++) {
      int sh = (int) (shoff + (long) i * shentsize);
      if (b.getInt(sh + 4) != 2) continue;  // SHT_SYMTAB
      long off = b.getLong(sh + 0x18);
      long size = b.getLong(sh + 0x20);
      int link = b.getInt(sh + 0x28);
      long entsize = b.getLong(sh + 0x38);
      int str = (int) (shoff + (long) link * shentsize);
      long strOff = b.getLong(str + 0x18);
      for (long s = off + entsize; s < off + size; s += entsize) {  // entry 0 is the null symbol
        int name = b.getInt((int) s);
        int info = elf[(int) s + 4] & 0xFF;
        int shndx = b.getShort((int) s + 6) & 0xFFFF;
        String n = cString(elf, (int) (strOff + name));
        boolean global = (info >> 4) != 0;  // not STB_LOCAL
        if (n.isEmpty() || !global) continue;
        (shndx == 0 ? undefined : defined).add(n);
      }
    }
    return new ElfSymbols(machine, defined, undefined);
  }

  private static String cString(byte[] b, int at) {
    int end = at;
    while (b[end] != 0) end++;
    return new String(b, at, end - at, StandardCharsets.US_ASCII);
  }
}
