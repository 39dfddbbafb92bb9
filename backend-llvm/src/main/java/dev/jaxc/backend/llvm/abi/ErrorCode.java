package dev.jaxc.backend.llvm.abi;

/**
 * The entry points' return values (C ABI contract). The CPU library returns the first three; a
 * {@code -target ptx} host library (backend-ptx, {@code host/runtime.ll}) also the CUDA ones, and
 * {@link #CUDA_ERROR} plus the driver's {@code CUresult} for any other driver failure, so a code
 * means the same on both targets.
 */
public enum ErrorCode {
  OK(0),
  /** A null {@code inputs}/{@code outputs} array, or a null buffer for a non-empty array. */
  BAD_ARGUMENTS(1),
  /** Work memory could not be allocated (host memory, or on ptx device memory too). */
  OUT_OF_MEMORY(2),
  /** ptx: {@code libcuda.so.1} cannot be loaded, or lacks a driver function the library needs. */
  NO_CUDA_DRIVER(10),
  /** ptx: the driver finds no CUDA device ({@code CUDA_ERROR_NO_DEVICE}), or no device 0. */
  NO_CUDA_DEVICE(11),
  /** ptx: the PTX ISA version is newer than the driver's ({@code CUDA_ERROR_UNSUPPORTED_PTX_VERSION}). */
  PTX_TOO_NEW_FOR_DRIVER(12),
  /** ptx: the {@code --sm} target is newer than the GPU ({@code CUDA_ERROR_NO_BINARY_FOR_GPU}). */
  PTX_TOO_NEW_FOR_GPU(13),
  /** ptx: any other driver failure; the code is 1000 plus the driver's {@code CUresult}. */
  CUDA_ERROR(1000);

  private final int code;

  ErrorCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The error a return value stands for; codes from 1000 up are {@link #CUDA_ERROR}. */
  public static ErrorCode of(int code) {
    if (code > CUDA_ERROR.code) return CUDA_ERROR;
    for (ErrorCode e : values()) if (e.code == code) return e;
    throw new IllegalArgumentException("unknown error code " + code);
  }

  /** The driver's {@code CUresult} inside a {@link #CUDA_ERROR} code. */
  public static int cudaResult(int code) {
    if (code <= CUDA_ERROR.code) throw new IllegalArgumentException(code + " carries no CUresult");
    return code - CUDA_ERROR.code;
  }
}
