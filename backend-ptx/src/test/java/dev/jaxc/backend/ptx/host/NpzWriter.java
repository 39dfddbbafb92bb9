package dev.jaxc.backend.ptx.host;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Writes float32 vectors as a NumPy {@code .npz} ({@code arr_0}, {@code arr_1}, ...; NPY 1.0). */
final class NpzWriter {
  private NpzWriter() {}

  static void f32(Path file, float[]... arrays) throws IOException {
    try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
      for (int k = 0; k < arrays.length; k++) {
        zip.putNextEntry(new ZipEntry("arr_" + k + ".npy"));
        zip.write(npy(arrays[k]));
        zip.closeEntry();
      }
    }
  }

  private static byte[] npy(float[] a) {
    String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + a.length + ",), }";
    int unpadded = 10 + dict.length() + 1;
    String header = dict + " ".repeat((64 - unpadded % 64) % 64) + "\n";
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0x93);
    b.writeBytes("NUMPY".getBytes(StandardCharsets.US_ASCII));
    b.write(1);
    b.write(0);
    b.write(header.length() & 0xFF);
    b.write(header.length() >> 8);
    b.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    ByteBuffer data = ByteBuffer.allocate(4 * a.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : a) data.putFloat(v);
    b.writeBytes(data.array());
    return b.toByteArray();
  }
}
