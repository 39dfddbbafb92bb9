; The PTX host runtime: the model-independent half of a `-target ptx` host library.
;
; It loads the CUDA driver at run time (dlopen("libcuda.so.1"), dlsym of the driver API: no
; link-time CUDA dependency), loads the program's PTX module once per CUDA context, keeps device
; work memory across calls, and launches the kernels. HostLibrary adds the model-dependent half:
; the program descriptor (%jaxc.ptx.program) and the C entry points, which call @jaxc.ptx.call.
;
; Target-independent for LP64 Linux (x86-64, AArch64): only pointers, i32 (CUresult, int, enums),
; i64 (size_t, CUdeviceptr); no struct passed by value; glibc's zero-filled mutex initialiser.
; Everything here is internal: each library carries its own copy and its own state.
;
; Return codes (abi/ErrorCode): 0 ok, 1 bad arguments, 2 out of memory (host or device),
; 10 no CUDA driver (libcuda.so.1 missing, or a required symbol missing: driver too old),
; 11 no CUDA device, 12 PTX too new for the driver (CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
; 13 PTX target newer than the GPU (see @jaxc.ptx.load_error), 1000 + r any other CUresult r.

; 0 PTX text (NUL-terminated), 1 number of inputs, 2 number of outputs, 3 number of launches,
; 4 launches [n x %jaxc.ptx.launch], 5 workspace bytes, 6 input bytes [i64], 7 output bytes [i64],
; 8 staging offsets [i64] (inputs, then outputs) for _host calls, 9 staging bytes,
; 10 the PTX target as a number (sm_80: 80), 11 the workspace offset and 12 the byte count of
; what must be zero in a new work block (kernels' counters, which every launch leaves zero)
%jaxc.ptx.program = type { ptr, i32, i32, i32, ptr, i64, ptr, ptr, ptr, i64, i32, i64, i64 }
; kernel name, grid x, block x, dynamic shared bytes
%jaxc.ptx.launch = type { ptr, i32, i32, i32 }
; one per CUDA context: next, CUcontext, context id (cuCtxGetId, else 0), CUmodule,
; CUfunction per launch, list of work blocks
%jaxc.ptx.context = type { ptr, ptr, i64, ptr, ptr, ptr }
; one work block: next, workspace (CUdeviceptr), staging for _host (0 until first needed),
; CUevent recorded after its last use, stream of its last use, busy (an enqueue in progress)
%jaxc.ptx.work = type { ptr, i64, i64, ptr, ptr, i32 }

declare ptr @dlopen(ptr, i32) nounwind
declare ptr @dlsym(ptr, ptr) nounwind
declare ptr @malloc(i64) nounwind
declare void @free(ptr) nounwind
declare i32 @pthread_mutex_lock(ptr) nounwind
declare i32 @pthread_mutex_unlock(ptr) nounwind

@jaxc.ptx.libcuda = private unnamed_addr constant [13 x i8] c"libcuda.so.1\00"

; The driver functions, by index. All but cuCtxGetId are required (a driver without one is "no
; CUDA driver"); cuCtxGetId (CUDA 12) tells a destroyed context from a new one at the same address.
; The names are the ones libcuda exports for the current ABI (the _v2 ones where there are two).
@jaxc.ptx.sym.0 = private unnamed_addr constant [7 x i8] c"cuInit\00"
@jaxc.ptx.sym.1 = private unnamed_addr constant [12 x i8] c"cuDeviceGet\00"
@jaxc.ptx.sym.2 = private unnamed_addr constant [16 x i8] c"cuCtxGetCurrent\00"
@jaxc.ptx.sym.3 = private unnamed_addr constant [25 x i8] c"cuDevicePrimaryCtxRetain\00"
@jaxc.ptx.sym.4 = private unnamed_addr constant [20 x i8] c"cuCtxPushCurrent_v2\00"
@jaxc.ptx.sym.5 = private unnamed_addr constant [19 x i8] c"cuCtxPopCurrent_v2\00"
@jaxc.ptx.sym.6 = private unnamed_addr constant [17 x i8] c"cuModuleLoadData\00"
@jaxc.ptx.sym.7 = private unnamed_addr constant [15 x i8] c"cuModuleUnload\00"
@jaxc.ptx.sym.8 = private unnamed_addr constant [20 x i8] c"cuModuleGetFunction\00"
@jaxc.ptx.sym.9 = private unnamed_addr constant [19 x i8] c"cuFuncSetAttribute\00"
@jaxc.ptx.sym.10 = private unnamed_addr constant [15 x i8] c"cuLaunchKernel\00"
@jaxc.ptx.sym.11 = private unnamed_addr constant [14 x i8] c"cuMemAlloc_v2\00"
@jaxc.ptx.sym.12 = private unnamed_addr constant [13 x i8] c"cuMemFree_v2\00"
@jaxc.ptx.sym.13 = private unnamed_addr constant [16 x i8] c"cuMemcpyHtoD_v2\00"
@jaxc.ptx.sym.14 = private unnamed_addr constant [16 x i8] c"cuMemcpyDtoH_v2\00"
@jaxc.ptx.sym.15 = private unnamed_addr constant [20 x i8] c"cuStreamSynchronize\00"
@jaxc.ptx.sym.16 = private unnamed_addr constant [14 x i8] c"cuEventCreate\00"
@jaxc.ptx.sym.17 = private unnamed_addr constant [14 x i8] c"cuEventRecord\00"
@jaxc.ptx.sym.18 = private unnamed_addr constant [13 x i8] c"cuEventQuery\00"
@jaxc.ptx.sym.19 = private unnamed_addr constant [18 x i8] c"cuStreamWaitEvent\00"
@jaxc.ptx.sym.20 = private unnamed_addr constant [15 x i8] c"cuCtxGetDevice\00"
@jaxc.ptx.sym.21 = private unnamed_addr constant [21 x i8] c"cuDeviceGetAttribute\00"
@jaxc.ptx.sym.22 = private unnamed_addr constant [11 x i8] c"cuCtxGetId\00"
@jaxc.ptx.sym.23 = private unnamed_addr constant [21 x i8] c"cuMemcpyDtoHAsync_v2\00"
@jaxc.ptx.sym.24 = private unnamed_addr constant [16 x i8] c"cuMemsetD8Async\00"
@jaxc.ptx.symbols = internal constant [25 x ptr] [ptr @jaxc.ptx.sym.0, ptr @jaxc.ptx.sym.1, ptr @jaxc.ptx.sym.2, ptr @jaxc.ptx.sym.3, ptr @jaxc.ptx.sym.4, ptr @jaxc.ptx.sym.5, ptr @jaxc.ptx.sym.6, ptr @jaxc.ptx.sym.7, ptr @jaxc.ptx.sym.8, ptr @jaxc.ptx.sym.9, ptr @jaxc.ptx.sym.10, ptr @jaxc.ptx.sym.11, ptr @jaxc.ptx.sym.12, ptr @jaxc.ptx.sym.13, ptr @jaxc.ptx.sym.14, ptr @jaxc.ptx.sym.15, ptr @jaxc.ptx.sym.16, ptr @jaxc.ptx.sym.17, ptr @jaxc.ptx.sym.18, ptr @jaxc.ptx.sym.19, ptr @jaxc.ptx.sym.20, ptr @jaxc.ptx.sym.21, ptr @jaxc.ptx.sym.22, ptr @jaxc.ptx.sym.23, ptr @jaxc.ptx.sym.24]

@jaxc.ptx.driver = internal global [25 x ptr] zeroinitializer
; 1 once the table is filled and cuInit succeeded (written with release, read with acquire)
@jaxc.ptx.loaded = internal global i32 0, align 4
; one pthread_mutex_t (40 bytes on x86-64, 48 on AArch64; all-zero is PTHREAD_MUTEX_INITIALIZER)
@jaxc.ptx.mutex = internal global [64 x i8] zeroinitializer, align 16
; device 0's primary context, retained once (for calls made with no current context)
@jaxc.ptx.primary = internal global ptr null
; the %jaxc.ptx.context list
@jaxc.ptx.contexts = internal global ptr null

; How many work blocks a context keeps before a call waits on a busy one instead of allocating.
@jaxc.ptx.max_work = internal constant i32 4

define internal ptr @jaxc.ptx.fn(i32 %k) alwaysinline nounwind {
entry:
  %p = getelementptr [25 x ptr], ptr @jaxc.ptx.driver, i64 0, i32 %k
  %f = load ptr, ptr %p
  ret ptr %f
}

define internal void @jaxc.ptx.lock() alwaysinline nounwind {
entry:
  %r = call i32 @pthread_mutex_lock(ptr @jaxc.ptx.mutex)
  ret void
}

define internal void @jaxc.ptx.unlock() alwaysinline nounwind {
entry:
  %r = call i32 @pthread_mutex_unlock(ptr @jaxc.ptx.mutex)
  ret void
}

; A CUresult as a return code.
define internal i32 @jaxc.ptx.code(i32 %r) nounwind {
entry:
  switch i32 %r, label %other [
    i32 0, label %ok
    i32 2, label %oom
    i32 100, label %nodevice
    i32 222, label %ptxnew
    i32 209, label %gpuold
  ]
ok:
  ret i32 0
oom:
  ret i32 2
nodevice:
  ret i32 11
ptxnew:
  ret i32 12
gpuold:
  ret i32 13
other:
  %c = add i32 %r, 1000
  ret i32 %c
}

; --- the driver -----------------------------------------------------------------------------

; 0 once the driver is loaded and initialised; the first call loads it, under the lock. A
; failure is not remembered: a later call tries again.
define internal i32 @jaxc.ptx.driver_ready() nounwind {
entry:
  %l = load atomic i32, ptr @jaxc.ptx.loaded acquire, align 4
  %done = icmp eq i32 %l, 1
  br i1 %done, label %ok, label %slow
ok:
  ret i32 0
slow:
  call void @jaxc.ptx.lock()
  %rc = call i32 @jaxc.ptx.load_driver()
  call void @jaxc.ptx.unlock()
  ret i32 %rc
}

; Under the lock.
define internal i32 @jaxc.ptx.load_driver() nounwind {
entry:
  %l = load i32, ptr @jaxc.ptx.loaded, align 4
  %done = icmp eq i32 %l, 1
  br i1 %done, label %ok, label %open
ok:
  ret i32 0
open:
  %h = call ptr @dlopen(ptr @jaxc.ptx.libcuda, i32 2)   ; RTLD_NOW
  %noh = icmp eq ptr %h, null
  br i1 %noh, label %nodriver, label %loop
loop:
  %i = phi i32 [ 0, %open ], [ %i1, %next ]
  %np = getelementptr [25 x ptr], ptr @jaxc.ptx.symbols, i64 0, i32 %i
  %name = load ptr, ptr %np
  %f = call ptr @dlsym(ptr %h, ptr %name)
  %fp = getelementptr [25 x ptr], ptr @jaxc.ptx.driver, i64 0, i32 %i
  store ptr %f, ptr %fp
  %missing = icmp eq ptr %f, null
  %required = icmp ne i32 %i, 22
  %bad = and i1 %missing, %required
  br i1 %bad, label %nodriver, label %next
next:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, 25
  br i1 %more, label %loop, label %init
init:
  %cuInit = call ptr @jaxc.ptx.fn(i32 0)
  %r = call i32 %cuInit(i32 0)
  %failed = icmp ne i32 %r, 0
  br i1 %failed, label %initfail, label %ready
initfail:
  %c = call i32 @jaxc.ptx.code(i32 %r)
  ret i32 %c
ready:
  store atomic i32 1, ptr @jaxc.ptx.loaded release, align 4
  ret i32 0
nodriver:
  ret i32 10
}

; Device 0's primary context, retained by the first call that needs it and kept.
define internal i32 @jaxc.ptx.primary_context(ptr %out) nounwind {
entry:
  %dev = alloca i32
  %ctx = alloca ptr
  call void @jaxc.ptx.lock()
  %p = load ptr, ptr @jaxc.ptx.primary
  %have = icmp ne ptr %p, null
  br i1 %have, label %done, label %get
get:
  %cuDeviceGet = call ptr @jaxc.ptx.fn(i32 1)
  %r1 = call i32 %cuDeviceGet(ptr %dev, i32 0)
  %f1 = icmp ne i32 %r1, 0
  br i1 %f1, label %nodevice, label %retain
retain:
  %d = load i32, ptr %dev
  %cuRetain = call ptr @jaxc.ptx.fn(i32 3)
  %r2 = call i32 %cuRetain(ptr %ctx, i32 %d)
  %f2 = icmp ne i32 %r2, 0
  br i1 %f2, label %fail, label %keep
keep:
  %c = load ptr, ptr %ctx
  store ptr %c, ptr @jaxc.ptx.primary
  br label %done
done:
  %pc = phi ptr [ %p, %entry ], [ %c, %keep ]
  store ptr %pc, ptr %out
  call void @jaxc.ptx.unlock()
  ret i32 0
nodevice:
  call void @jaxc.ptx.unlock()
  %e100 = icmp eq i32 %r1, 100   ; CUDA_ERROR_NO_DEVICE
  %e101 = icmp eq i32 %r1, 101   ; CUDA_ERROR_INVALID_DEVICE: no device 0
  %none = or i1 %e100, %e101
  %c1 = call i32 @jaxc.ptx.code(i32 %r1)
  %rc1 = select i1 %none, i32 11, i32 %c1
  ret i32 %rc1
fail:
  call void @jaxc.ptx.unlock()
  %c2 = call i32 @jaxc.ptx.code(i32 %r2)
  ret i32 %c2
}

; --- per-context module ---------------------------------------------------------------------

; The record of context %ctx, loading the module and its functions on first use. Under the lock,
; so a module is loaded once per context however many threads call at once.
define internal i32 @jaxc.ptx.context(ptr %prog, ptr %ctx, ptr %out) nounwind {
entry:
  %idslot = alloca i64
  %modslot = alloca ptr
  store i64 0, ptr %idslot
  %cuCtxGetId = call ptr @jaxc.ptx.fn(i32 22)
  %hasid = icmp ne ptr %cuCtxGetId, null
  br i1 %hasid, label %askid, label %search
askid:
  %ri = call i32 %cuCtxGetId(ptr %ctx, ptr %idslot)   ; on failure the id stays 0
  br label %search
search:
  %id = load i64, ptr %idslot
  %head = load ptr, ptr @jaxc.ptx.contexts
  br label %walk
walk:
  %rec = phi ptr [ %head, %search ], [ %nextrec, %advance ]
  %end = icmp eq ptr %rec, null
  br i1 %end, label %load, label %test
test:
  %rctxp = getelementptr %jaxc.ptx.context, ptr %rec, i32 0, i32 1
  %rctx = load ptr, ptr %rctxp
  %ridp = getelementptr %jaxc.ptx.context, ptr %rec, i32 0, i32 2
  %rid = load i64, ptr %ridp
  %samectx = icmp eq ptr %rctx, %ctx
  %sameid = icmp eq i64 %rid, %id
  %same = and i1 %samectx, %sameid
  br i1 %same, label %found, label %advance
advance:
  %nextrec = load ptr, ptr %rec
  br label %walk
found:
  store ptr %rec, ptr %out
  ret i32 0
load:
  %ptxp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 0
  %ptx = load ptr, ptr %ptxp
  %cuModuleLoadData = call ptr @jaxc.ptx.fn(i32 6)
  %rl = call i32 %cuModuleLoadData(ptr %modslot, ptr %ptx)
  %lfail = icmp ne i32 %rl, 0
  br i1 %lfail, label %loadfail, label %loaded
loadfail:
  %cl = call i32 @jaxc.ptx.load_error(ptr %prog, i32 %rl)
  ret i32 %cl
loaded:
  %mod = load ptr, ptr %modslot
  %np = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 3
  %n = load i32, ptr %np
  %lp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 4
  %launches = load ptr, ptr %lp
  %n64 = zext i32 %n to i64
  %fbytes = mul i64 %n64, 8
  %fbytes1 = add i64 %fbytes, 8
  %funcs = call ptr @malloc(i64 %fbytes1)
  %rec0 = call ptr @malloc(i64 64)
  %nofuncs = icmp eq ptr %funcs, null
  %norec = icmp eq ptr %rec0, null
  %nomem = or i1 %nofuncs, %norec
  br i1 %nomem, label %oom, label %fcheck
fcheck:
  %none = icmp eq i32 %n, 0
  br i1 %none, label %record, label %floop
floop:
  %k = phi i32 [ 0, %fcheck ], [ %k1, %fnext ]
  %lk = getelementptr %jaxc.ptx.launch, ptr %launches, i32 %k
  %kname = load ptr, ptr %lk
  %fslot = getelementptr ptr, ptr %funcs, i32 %k
  %cuModuleGetFunction = call ptr @jaxc.ptx.fn(i32 8)
  %rf = call i32 %cuModuleGetFunction(ptr %fslot, ptr %mod, ptr %kname)
  %ffail = icmp ne i32 %rf, 0
  br i1 %ffail, label %cufail, label %fshared
fshared:
  %sp = getelementptr %jaxc.ptx.launch, ptr %launches, i32 %k, i32 3
  %shared = load i32, ptr %sp
  %big = icmp ugt i32 %shared, 49152   ; above 48 KiB of dynamic shared memory: opt in
  br i1 %big, label %fattr, label %fnext
fattr:
  %fn = load ptr, ptr %fslot
  %cuFuncSetAttribute = call ptr @jaxc.ptx.fn(i32 9)
  %ra = call i32 %cuFuncSetAttribute(ptr %fn, i32 8, i32 %shared)   ; MAX_DYNAMIC_SHARED_SIZE_BYTES
  %afail = icmp ne i32 %ra, 0
  br i1 %afail, label %cufail, label %fnext
cufail:
  %rcu = phi i32 [ %rf, %floop ], [ %ra, %fattr ]
  call void @free(ptr %funcs)
  call void @free(ptr %rec0)
  %cuModuleUnload = call ptr @jaxc.ptx.fn(i32 7)
  %ru = call i32 %cuModuleUnload(ptr %mod)
  %ccu = call i32 @jaxc.ptx.code(i32 %rcu)
  ret i32 %ccu
fnext:
  %k1 = add i32 %k, 1
  %fmore = icmp ult i32 %k1, %n
  br i1 %fmore, label %floop, label %record
record:
  %head2 = load ptr, ptr @jaxc.ptx.contexts
  store ptr %head2, ptr %rec0
  %r1 = getelementptr %jaxc.ptx.context, ptr %rec0, i32 0, i32 1
  store ptr %ctx, ptr %r1
  %r2 = getelementptr %jaxc.ptx.context, ptr %rec0, i32 0, i32 2
  store i64 %id, ptr %r2
  %r3 = getelementptr %jaxc.ptx.context, ptr %rec0, i32 0, i32 3
  store ptr %mod, ptr %r3
  %r4 = getelementptr %jaxc.ptx.context, ptr %rec0, i32 0, i32 4
  store ptr %funcs, ptr %r4
  %r5 = getelementptr %jaxc.ptx.context, ptr %rec0, i32 0, i32 5
  store ptr null, ptr %r5
  store ptr %rec0, ptr @jaxc.ptx.contexts
  store ptr %rec0, ptr %out
  ret i32 0
oom:
  call void @free(ptr %funcs)
  call void @free(ptr %rec0)
  %cuModuleUnload2 = call ptr @jaxc.ptx.fn(i32 7)
  %ru2 = call i32 %cuModuleUnload2(ptr %mod)
  ret i32 2
}

; The code for a module the driver refused: PTX_TOO_NEW_FOR_GPU when the program's sm is above
; the current device's compute capability (the driver answers that with CUDA_ERROR_INVALID_PTX,
; 218, as seen on an H200 with driver 580, or with CUDA_ERROR_NO_BINARY_FOR_GPU, 209), else
; the driver's own code.
define internal i32 @jaxc.ptx.load_error(ptr %prog, i32 %r) nounwind {
entry:
  %dev = alloca i32
  %major = alloca i32
  %minor = alloca i32
  %c = call i32 @jaxc.ptx.code(i32 %r)
  %e218 = icmp eq i32 %r, 218
  %e209 = icmp eq i32 %r, 209
  %jit = or i1 %e218, %e209
  br i1 %jit, label %device, label %done
device:
  %cuCtxGetDevice = call ptr @jaxc.ptx.fn(i32 20)
  %r1 = call i32 %cuCtxGetDevice(ptr %dev)
  %d = load i32, ptr %dev
  %cuDeviceGetAttribute = call ptr @jaxc.ptx.fn(i32 21)
  %r2 = call i32 %cuDeviceGetAttribute(ptr %major, i32 75, i32 %d)   ; COMPUTE_CAPABILITY_MAJOR
  %r3 = call i32 %cuDeviceGetAttribute(ptr %minor, i32 76, i32 %d)   ; COMPUTE_CAPABILITY_MINOR
  %r12 = or i32 %r1, %r2
  %r123 = or i32 %r12, %r3
  %asked = icmp eq i32 %r123, 0
  br i1 %asked, label %compare, label %done
compare:
  %ma = load i32, ptr %major
  %mi = load i32, ptr %minor
  %ma10 = mul i32 %ma, 10
  %cc = add i32 %ma10, %mi
  %smp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 10
  %sm = load i32, ptr %smp
  %older = icmp ugt i32 %sm, %cc
  %rc = select i1 %older, i32 13, i32 %c
  ret i32 %rc
done:
  ret i32 %c
}

; --- work memory ------------------------------------------------------------------------------
;
; A context keeps a list of work blocks (the workspace, and staging buffers for _host calls).
; Each block carries an event recorded on the stream of its last use; the next user makes its
; own stream wait on that event before its kernels, so a block is never used by two calls at
; once whatever the streams (and a stream destroyed and re-created at the same address is still
; ordered). A call takes, in this order: an idle block last used on its own stream (the wait is
; free), an idle block whose event has completed, a new block while the context has fewer than
; @jaxc.ptx.max_work, an idle block (its stream waits), a new block. "Busy" covers only the
; enqueueing of one call, on the host.

; The first idle block of the list matching %how: 0 last used on %stream, 1 its event done, 2 any.
define internal ptr @jaxc.ptx.find_idle(ptr %head, ptr %stream, i32 %how) nounwind {
entry:
  br label %walk
walk:
  %w = phi ptr [ %head, %entry ], [ %next, %skip ]
  %end = icmp eq ptr %w, null
  br i1 %end, label %none, label %test
test:
  %bp = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 5
  %busy = load i32, ptr %bp
  %isbusy = icmp ne i32 %busy, 0
  br i1 %isbusy, label %skip, label %kind
kind:
  switch i32 %how, label %take [
    i32 0, label %bystream
    i32 1, label %byevent
  ]
bystream:
  %sp = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 4
  %s = load ptr, ptr %sp
  %same = icmp eq ptr %s, %stream
  br i1 %same, label %take, label %skip
byevent:
  %ep = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 3
  %ev = load ptr, ptr %ep
  %cuEventQuery = call ptr @jaxc.ptx.fn(i32 18)
  %q = call i32 %cuEventQuery(ptr %ev)
  %done = icmp eq i32 %q, 0
  br i1 %done, label %take, label %skip
skip:
  %next = load ptr, ptr %w
  br label %walk
take:
  ret ptr %w
none:
  ret ptr null
}

define internal i32 @jaxc.ptx.count(ptr %head) nounwind {
entry:
  br label %walk
walk:
  %w = phi ptr [ %head, %entry ], [ %next, %step ]
  %n = phi i32 [ 0, %entry ], [ %n1, %step ]
  %end = icmp eq ptr %w, null
  br i1 %end, label %done, label %step
step:
  %n1 = add i32 %n, 1
  %next = load ptr, ptr %w
  br label %walk
done:
  ret i32 %n
}

; A new block at the head of the context's list (workspace allocated, staging not yet). Its
; zeroed bytes are cleared on %stream, the stream of the call that takes the block: enqueued
; before that call's kernels, and every later user waits on the block's event.
define internal i32 @jaxc.ptx.new_work(ptr %prog, ptr %rec, ptr %stream, ptr %out) nounwind {
entry:
  %wsslot = alloca i64
  %evslot = alloca ptr
  store i64 0, ptr %wsslot
  %w = call ptr @malloc(i64 48)
  %nomem = icmp eq ptr %w, null
  br i1 %nomem, label %oom, label %alloc
oom:
  ret i32 2
alloc:
  %wsp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 5
  %bytes = load i64, ptr %wsp
  %hasws = icmp ne i64 %bytes, 0
  br i1 %hasws, label %devalloc, label %event
devalloc:
  %cuMemAlloc = call ptr @jaxc.ptx.fn(i32 11)
  %ra = call i32 %cuMemAlloc(ptr %wsslot, i64 %bytes)
  %afail = icmp ne i32 %ra, 0
  br i1 %afail, label %allocfail, label %zero
allocfail:
  call void @free(ptr %w)
  %ca = call i32 @jaxc.ptx.code(i32 %ra)
  ret i32 %ca
zero:
  %zbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 12
  %zbytes = load i64, ptr %zbp
  %haszero = icmp ne i64 %zbytes, 0
  br i1 %haszero, label %memset, label %event
memset:
  %zop = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 11
  %zoff = load i64, ptr %zop
  %wsbase = load i64, ptr %wsslot
  %zat = add i64 %wsbase, %zoff
  %cuMemsetD8Async = call ptr @jaxc.ptx.fn(i32 24)
  %rz = call i32 %cuMemsetD8Async(i64 %zat, i8 0, i64 %zbytes, ptr %stream)
  %zfail = icmp ne i32 %rz, 0
  br i1 %zfail, label %zerofail, label %event
zerofail:
  %cuMemFree0 = call ptr @jaxc.ptx.fn(i32 12)
  %rfree0 = call i32 %cuMemFree0(i64 %wsbase)
  call void @free(ptr %w)
  %cz = call i32 @jaxc.ptx.code(i32 %rz)
  ret i32 %cz
event:
  %cuEventCreate = call ptr @jaxc.ptx.fn(i32 16)
  %re = call i32 %cuEventCreate(ptr %evslot, i32 2)   ; CU_EVENT_DISABLE_TIMING
  %efail = icmp ne i32 %re, 0
  br i1 %efail, label %eventfail, label %link
eventfail:
  %ws0 = load i64, ptr %wsslot
  %hadws = icmp ne i64 %ws0, 0
  br i1 %hadws, label %freews, label %eventfail2
freews:
  %cuMemFree = call ptr @jaxc.ptx.fn(i32 12)
  %rfree = call i32 %cuMemFree(i64 %ws0)
  br label %eventfail2
eventfail2:
  call void @free(ptr %w)
  %ce = call i32 @jaxc.ptx.code(i32 %re)
  ret i32 %ce
link:
  %poolp = getelementptr %jaxc.ptx.context, ptr %rec, i32 0, i32 5
  %head = load ptr, ptr %poolp
  store ptr %head, ptr %w
  %ws = load i64, ptr %wsslot
  %f1 = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 1
  store i64 %ws, ptr %f1
  %f2 = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 2
  store i64 0, ptr %f2
  %ev = load ptr, ptr %evslot
  %f3 = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 3
  store ptr %ev, ptr %f3
  %f4 = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 4
  store ptr null, ptr %f4
  %f5 = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 5
  store i32 0, ptr %f5
  store ptr %w, ptr %poolp
  store ptr %w, ptr %out
  ret i32 0
}

; Takes a block for a call on %stream (marks it busy). Under the lock.
define internal i32 @jaxc.ptx.acquire(ptr %prog, ptr %rec, ptr %stream, ptr %out) nounwind {
entry:
  %poolp = getelementptr %jaxc.ptx.context, ptr %rec, i32 0, i32 5
  %head = load ptr, ptr %poolp
  %same = call ptr @jaxc.ptx.find_idle(ptr %head, ptr %stream, i32 0)
  %hassame = icmp ne ptr %same, null
  br i1 %hassame, label %take, label %trydone
trydone:
  %done = call ptr @jaxc.ptx.find_idle(ptr %head, ptr %stream, i32 1)
  %hasdone = icmp ne ptr %done, null
  br i1 %hasdone, label %take, label %grow
grow:
  %n = call i32 @jaxc.ptx.count(ptr %head)
  %max = load i32, ptr @jaxc.ptx.max_work
  %room = icmp ult i32 %n, %max
  br i1 %room, label %newfirst, label %idlefirst
newfirst:
  %r1 = call i32 @jaxc.ptx.new_work(ptr %prog, ptr %rec, ptr %stream, ptr %out)
  %ok1 = icmp eq i32 %r1, 0
  br i1 %ok1, label %takenew, label %fallback
fallback:   ; no memory for another block: wait for an idle one if there is one
  %idle1 = call ptr @jaxc.ptx.find_idle(ptr %head, ptr %stream, i32 2)
  %hasidle1 = icmp ne ptr %idle1, null
  br i1 %hasidle1, label %take, label %fail
fail:
  ret i32 %r1
idlefirst:
  %idle2 = call ptr @jaxc.ptx.find_idle(ptr %head, ptr %stream, i32 2)
  %hasidle2 = icmp ne ptr %idle2, null
  br i1 %hasidle2, label %take, label %newlast
newlast:   ; every block is being enqueued by another thread
  %r2 = call i32 @jaxc.ptx.new_work(ptr %prog, ptr %rec, ptr %stream, ptr %out)
  %ok2 = icmp eq i32 %r2, 0
  br i1 %ok2, label %takenew, label %fail2
fail2:
  ret i32 %r2
takenew:
  %wn = load ptr, ptr %out
  br label %take
take:
  %w = phi ptr [ %same, %entry ], [ %done, %trydone ], [ %idle1, %fallback ], [ %idle2, %idlefirst ], [ %wn, %takenew ]
  %bp = getelementptr %jaxc.ptx.work, ptr %w, i32 0, i32 5
  store i32 1, ptr %bp
  store ptr %w, ptr %out
  ret i32 0
}

; --- arguments and launches -------------------------------------------------------------------

; 1 if an array of %n buffers is null while %n > 0, or holds a null buffer of non-zero size.
define internal i32 @jaxc.ptx.check_list(i32 %n, ptr %arr, ptr %bytes) nounwind {
entry:
  %none = icmp eq i32 %n, 0
  br i1 %none, label %ok, label %nullarr
nullarr:
  %isnull = icmp eq ptr %arr, null
  br i1 %isnull, label %bad, label %loop
loop:
  %i = phi i32 [ 0, %nullarr ], [ %i1, %next ]
  %pp = getelementptr ptr, ptr %arr, i32 %i
  %p = load ptr, ptr %pp
  %bp = getelementptr i64, ptr %bytes, i32 %i
  %b = load i64, ptr %bp
  %pnull = icmp eq ptr %p, null
  %sized = icmp ne i64 %b, 0
  %badone = and i1 %pnull, %sized
  br i1 %badone, label %bad, label %next
next:
  %i1 = add i32 %i, 1
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %loop, label %ok
ok:
  ret i32 0
bad:
  ret i32 1
}

; The program (HostLibrary generates it from DeviceProgram's nodes): launches, host-driven loops
; and branches; 0 or the first failing CUresult. Arguments: the program, the context's CUfunction
; per kernel, the kernel parameters (pointers to the values), the iteration parameter's value
; slot, the stream, the workspace.
declare i32 @jaxc.ptx.steps(ptr, ptr, ptr, ptr, ptr, i64)

; Launches kernel %k of the program's table on %stream; the CUresult.
define internal i32 @jaxc.ptx.launch_one(ptr %prog, ptr %funcs, i32 %k, ptr %params, ptr %stream) nounwind {
entry:
  %lp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 4
  %launches = load ptr, ptr %lp
  %fslot = getelementptr ptr, ptr %funcs, i32 %k
  %f = load ptr, ptr %fslot
  %gp = getelementptr %jaxc.ptx.launch, ptr %launches, i32 %k, i32 1
  %grid = load i32, ptr %gp
  %bkp = getelementptr %jaxc.ptx.launch, ptr %launches, i32 %k, i32 2
  %block = load i32, ptr %bkp
  %shp = getelementptr %jaxc.ptx.launch, ptr %launches, i32 %k, i32 3
  %shared = load i32, ptr %shp
  %cuLaunchKernel = call ptr @jaxc.ptx.fn(i32 10)
  %rl = call i32 %cuLaunchKernel(ptr %f, i32 %grid, i32 1, i32 1, i32 %block, i32 1, i32 1, i32 %shared, ptr %stream, ptr %params, ptr null)
  ret i32 %rl
}

; Reads %n bytes of device memory at %src into %dst once the work enqueued on %stream before has
; run: an asynchronous copy on the stream, then the stream synchronised (so NAME_async waits here
; when its program reads back a loop predicate or a branch number). The CUresult.
define internal i32 @jaxc.ptx.read_back(ptr %dst, i64 %src, i64 %n, ptr %stream) nounwind {
entry:
  %cuMemcpyDtoHAsync = call ptr @jaxc.ptx.fn(i32 23)
  %r = call i32 %cuMemcpyDtoHAsync(ptr %dst, i64 %src, i64 %n, ptr %stream)
  %fail = icmp ne i32 %r, 0
  br i1 %fail, label %done, label %sync
sync:
  %cuStreamSynchronize = call ptr @jaxc.ptx.fn(i32 15)
  %rs = call i32 %cuStreamSynchronize(ptr %stream)
  ret i32 %rs
done:
  ret i32 %r
}

; Copies inputs to the staging buffer (_host), runs the program (@jaxc.ptx.steps: kernels with
; (inputs, outputs, workspace, iteration)), copies outputs back (_host). %work is null when neither is needed.
define internal i32 @jaxc.ptx.run(ptr %prog, ptr %rec, ptr %work, ptr %ins, ptr %outs, ptr %stream, i32 %mode) nounwind {
entry:
  %nip = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 1
  %nin = load i32, ptr %nip
  %nop = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 2
  %nout = load i32, ptr %nop
  %nio = add i32 %nin, %nout
  %nparams = add i32 %nio, 2   ; inputs, outputs, workspace, iteration
  %vals = alloca i64, i32 %nparams
  %params = alloca ptr, i32 %nparams
  %inbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 6
  %inbytes = load ptr, ptr %inbp
  %outbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 7
  %outbytes = load ptr, ptr %outbp
  br label %ploop
ploop:   ; params[i] = &vals[i]
  %pi = phi i32 [ 0, %entry ], [ %pi1, %ploop ]
  %vslot = getelementptr i64, ptr %vals, i32 %pi
  %pslot = getelementptr ptr, ptr %params, i32 %pi
  store ptr %vslot, ptr %pslot
  %pi1 = add i32 %pi, 1
  %pmore = icmp ult i32 %pi1, %nparams
  br i1 %pmore, label %ploop, label %args
args:
  %host = icmp eq i32 %mode, 2
  br i1 %host, label %staging, label %devargs

devargs:   ; the caller's device pointers, inputs then outputs
  %hasio = icmp ne i32 %nio, 0
  br i1 %hasio, label %dloop, label %wsarg
dloop:
  %di = phi i32 [ 0, %devargs ], [ %di1, %dloop ]
  %isin = icmp ult i32 %di, %nin
  %oi = sub i32 %di, %nin
  %arr = select i1 %isin, ptr %ins, ptr %outs
  %ai = select i1 %isin, i32 %di, i32 %oi
  %ap = getelementptr ptr, ptr %arr, i32 %ai
  %a = load ptr, ptr %ap
  %av = ptrtoint ptr %a to i64
  %dslot = getelementptr i64, ptr %vals, i32 %di
  store i64 %av, ptr %dslot
  %di1 = add i32 %di, 1
  %dmore = icmp ult i32 %di1, %nio
  br i1 %dmore, label %dloop, label %wsarg

staging:   ; _host: the block's staging buffer, allocated on first use
  %iop = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 2
  %io0 = load i64, ptr %iop
  %iobp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 9
  %iobytes = load i64, ptr %iobp
  %noio = icmp eq i64 %io0, 0
  %need = icmp ne i64 %iobytes, 0
  %alloc = and i1 %noio, %need
  br i1 %alloc, label %ioalloc, label %hostargs
ioalloc:
  %cuMemAlloc = call ptr @jaxc.ptx.fn(i32 11)
  %ra = call i32 %cuMemAlloc(ptr %iop, i64 %iobytes)
  %afail = icmp ne i32 %ra, 0
  br i1 %afail, label %cufail0, label %hostargs
cufail0:
  store i64 0, ptr %iop
  br label %cufail
hostargs:
  %io = load i64, ptr %iop
  %offp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 8
  %offs = load ptr, ptr %offp
  %hasio2 = icmp ne i32 %nio, 0
  br i1 %hasio2, label %hloop, label %wsarg
hloop:
  %hi = phi i32 [ 0, %hostargs ], [ %hi1, %hnext ]
  %op = getelementptr i64, ptr %offs, i32 %hi
  %off = load i64, ptr %op
  %dev = add i64 %io, %off
  %hslot = getelementptr i64, ptr %vals, i32 %hi
  store i64 %dev, ptr %hslot
  %hisin = icmp ult i32 %hi, %nin
  br i1 %hisin, label %hcopy, label %hnext
hcopy:
  %srcp = getelementptr ptr, ptr %ins, i32 %hi
  %src = load ptr, ptr %srcp
  %szp = getelementptr i64, ptr %inbytes, i32 %hi
  %sz = load i64, ptr %szp
  %nonempty = icmp ne i64 %sz, 0
  br i1 %nonempty, label %hcopy2, label %hnext
hcopy2:
  %cuMemcpyHtoD = call ptr @jaxc.ptx.fn(i32 13)
  %rh = call i32 %cuMemcpyHtoD(i64 %dev, ptr %src, i64 %sz)
  %hfail = icmp ne i32 %rh, 0
  br i1 %hfail, label %cufail, label %hnext
hnext:
  %hi1 = add i32 %hi, 1
  %hmore = icmp ult i32 %hi1, %nio
  br i1 %hmore, label %hloop, label %wsarg

wsarg:   ; the workspace pointer, null when there is none
  %haswork = icmp ne ptr %work, null
  br i1 %haswork, label %wsload, label %wsset
wsload:
  %wsp = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 1
  %wsv = load i64, ptr %wsp
  br label %wsset
wsset:
  %ws = phi i64 [ 0, %wsarg ], [ %wsv, %wsload ]
  %wslot = getelementptr i64, ptr %vals, i32 %nio
  store i64 %ws, ptr %wslot
  %fp = getelementptr %jaxc.ptx.context, ptr %rec, i32 0, i32 4
  %funcs = load ptr, ptr %fp
  %islot = add i32 %nio, 1
  %itslot = getelementptr i64, ptr %vals, i32 %islot
  store i64 0, ptr %itslot
  %rl = call i32 @jaxc.ptx.steps(ptr %prog, ptr %funcs, ptr %params, ptr %itslot, ptr %stream, i64 %ws)
  %lfail = icmp ne i32 %rl, 0
  br i1 %lfail, label %cufail, label %back

back:   ; _host: outputs back to the caller (ordered after the kernels on the legacy stream)
  %host2 = icmp eq i32 %mode, 2
  %hasout = icmp ne i32 %nout, 0
  %copyback = and i1 %host2, %hasout
  br i1 %copyback, label %bloop, label %ok
bloop:
  %bj = phi i32 [ 0, %back ], [ %bj1, %bnext ]
  %bi = add i32 %bj, %nin
  %bvp = getelementptr i64, ptr %vals, i32 %bi
  %bdev = load i64, ptr %bvp
  %dstp = getelementptr ptr, ptr %outs, i32 %bj
  %dst = load ptr, ptr %dstp
  %bszp = getelementptr i64, ptr %outbytes, i32 %bj
  %bsz = load i64, ptr %bszp
  %bnonempty = icmp ne i64 %bsz, 0
  br i1 %bnonempty, label %bcopy, label %bnext
bcopy:
  %cuMemcpyDtoH = call ptr @jaxc.ptx.fn(i32 14)
  %rb = call i32 %cuMemcpyDtoH(ptr %dst, i64 %bdev, i64 %bsz)
  %bfail = icmp ne i32 %rb, 0
  br i1 %bfail, label %cufail, label %bnext
bnext:
  %bj1 = add i32 %bj, 1
  %bmore = icmp ult i32 %bj1, %nout
  br i1 %bmore, label %bloop, label %ok
ok:
  ret i32 0
cufail:
  %r = phi i32 [ %ra, %cufail0 ], [ %rh, %hcopy2 ], [ %rl, %wsset ], [ %rb, %bcopy ]
  %c = call i32 @jaxc.ptx.code(i32 %r)
  ret i32 %c
}

; --- the entry ----------------------------------------------------------------------------------

; One call. %mode 0: device pointers, legacy default stream, synchronised (NAME); 1: device
; pointers on %stream, not synchronised (NAME_async); 2: host pointers, staged through device
; memory on the legacy default stream (NAME_host). Runs in the calling thread's current context,
; else in device 0's primary context, pushed for the call and popped after it.
define internal i32 @jaxc.ptx.call(ptr %prog, ptr %ins, ptr %outs, ptr %stream0, i32 %mode) nounwind {
entry:
  %ctxslot = alloca ptr
  %recslot = alloca ptr
  %workslot = alloca ptr
  %popslot = alloca ptr
  %rcslot = alloca i32
  %pushedslot = alloca i1
  store i1 false, ptr %pushedslot
  store i32 0, ptr %rcslot
  %nip = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 1
  %nin = load i32, ptr %nip
  %nop = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 2
  %nout = load i32, ptr %nop
  %inbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 6
  %inbytes = load ptr, ptr %inbp
  %outbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 7
  %outbytes = load ptr, ptr %outbp
  %b1 = call i32 @jaxc.ptx.check_list(i32 %nin, ptr %ins, ptr %inbytes)
  %b2 = call i32 @jaxc.ptx.check_list(i32 %nout, ptr %outs, ptr %outbytes)
  %bad = or i32 %b1, %b2
  %isbad = icmp ne i32 %bad, 0
  br i1 %isbad, label %badargs, label %driver
badargs:
  ret i32 1
driver:
  %rd = call i32 @jaxc.ptx.driver_ready()
  %dfail = icmp ne i32 %rd, 0
  br i1 %dfail, label %early, label %current
early:
  ret i32 %rd
current:
  store ptr null, ptr %ctxslot
  %cuCtxGetCurrent = call ptr @jaxc.ptx.fn(i32 2)
  %rg = call i32 %cuCtxGetCurrent(ptr %ctxslot)
  %gfail = icmp ne i32 %rg, 0
  br i1 %gfail, label %gfailed, label %gotcur
gfailed:
  %cg = call i32 @jaxc.ptx.code(i32 %rg)
  ret i32 %cg
gotcur:
  %cur = load ptr, ptr %ctxslot
  %nocur = icmp eq ptr %cur, null
  br i1 %nocur, label %primary, label %have
primary:
  %rp = call i32 @jaxc.ptx.primary_context(ptr %ctxslot)
  %pfail = icmp ne i32 %rp, 0
  br i1 %pfail, label %early2, label %push
early2:
  ret i32 %rp
push:
  %pctx = load ptr, ptr %ctxslot
  %cuCtxPushCurrent = call ptr @jaxc.ptx.fn(i32 4)
  %rpush = call i32 %cuCtxPushCurrent(ptr %pctx)
  %pushfail = icmp ne i32 %rpush, 0
  br i1 %pushfail, label %gfailed2, label %pushed
gfailed2:
  %cpush = call i32 @jaxc.ptx.code(i32 %rpush)
  ret i32 %cpush
pushed:
  store i1 true, ptr %pushedslot
  br label %have
have:
  %ctx = load ptr, ptr %ctxslot
  %async = icmp eq i32 %mode, 1
  %stream = select i1 %async, ptr %stream0, ptr null
  store ptr null, ptr %workslot
  call void @jaxc.ptx.lock()
  %rc = call i32 @jaxc.ptx.context(ptr %prog, ptr %ctx, ptr %recslot)
  %cfail = icmp ne i32 %rc, 0
  br i1 %cfail, label %unlockfail, label %needwork
needwork:
  %rec = load ptr, ptr %recslot
  %wsbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 5
  %wsbytes = load i64, ptr %wsbp
  %hasws = icmp ne i64 %wsbytes, 0
  %host = icmp eq i32 %mode, 2
  %need = or i1 %hasws, %host
  br i1 %need, label %acquire, label %unlocked
acquire:
  %racq = call i32 @jaxc.ptx.acquire(ptr %prog, ptr %rec, ptr %stream, ptr %workslot)
  %afail = icmp ne i32 %racq, 0
  br i1 %afail, label %unlockfail, label %unlocked
unlockfail:
  %rf = phi i32 [ %rc, %have ], [ %racq, %acquire ]
  call void @jaxc.ptx.unlock()
  store i32 %rf, ptr %rcslot
  br label %finish
unlocked:
  call void @jaxc.ptx.unlock()
  %work = load ptr, ptr %workslot
  %haswork = icmp ne ptr %work, null
  br i1 %haswork, label %wait, label %launch
wait:   ; after the block's previous user, whatever its stream
  %evp = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 3
  %ev = load ptr, ptr %evp
  %cuStreamWaitEvent = call ptr @jaxc.ptx.fn(i32 19)
  %rw = call i32 %cuStreamWaitEvent(ptr %stream, ptr %ev, i32 0)
  %wfail = icmp ne i32 %rw, 0
  br i1 %wfail, label %waitfail, label %launch
waitfail:
  %cw = call i32 @jaxc.ptx.code(i32 %rw)
  store i32 %cw, ptr %rcslot
  br label %release
launch:
  %rr = call i32 @jaxc.ptx.run(ptr %prog, ptr %rec, ptr %work, ptr %ins, ptr %outs, ptr %stream, i32 %mode)
  store i32 %rr, ptr %rcslot
  br i1 %haswork, label %record, label %sync
record:   ; the block is free again once the stream passes this point
  %evp2 = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 3
  %ev2 = load ptr, ptr %evp2
  %cuEventRecord = call ptr @jaxc.ptx.fn(i32 17)
  %rev = call i32 %cuEventRecord(ptr %ev2, ptr %stream)
  %cev = call i32 @jaxc.ptx.code(i32 %rev)
  %prev = load i32, ptr %rcslot
  %wasok = icmp eq i32 %prev, 0
  %rc2 = select i1 %wasok, i32 %cev, i32 %prev
  store i32 %rc2, ptr %rcslot
  br label %release
release:
  call void @jaxc.ptx.lock()
  %sp = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 4
  store ptr %stream, ptr %sp
  %bp = getelementptr %jaxc.ptx.work, ptr %work, i32 0, i32 5
  store i32 0, ptr %bp
  call void @jaxc.ptx.unlock()
  br label %sync
sync:   ; NAME and NAME_host wait for their work, so its errors are reported
  %r0 = load i32, ptr %rcslot
  %ok = icmp eq i32 %r0, 0
  %notasync = icmp ne i32 %mode, 1
  %dosync = and i1 %ok, %notasync
  br i1 %dosync, label %synchronize, label %finish
synchronize:
  %cuStreamSynchronize = call ptr @jaxc.ptx.fn(i32 15)
  %rs = call i32 %cuStreamSynchronize(ptr %stream)
  %cs = call i32 @jaxc.ptx.code(i32 %rs)
  store i32 %cs, ptr %rcslot
  br label %finish
finish:
  %didpush = load i1, ptr %pushedslot
  br i1 %didpush, label %pop, label %done
pop:
  %cuCtxPopCurrent = call ptr @jaxc.ptx.fn(i32 5)
  %rpop = call i32 %cuCtxPopCurrent(ptr %popslot)
  br label %done
done:
  %result = load i32, ptr %rcslot
  ret i32 %result
}

; Byte size of input (%which 0) or output (1) %i; -1 when there is no such buffer.
define internal i64 @jaxc.ptx.bytes(ptr %prog, i32 %which, i32 %i) nounwind {
entry:
  %isout = icmp ne i32 %which, 0
  %nip = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 1
  %nop = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 2
  %np = select i1 %isout, ptr %nop, ptr %nip
  %n = load i32, ptr %np
  %inbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 6
  %outbp = getelementptr %jaxc.ptx.program, ptr %prog, i32 0, i32 7
  %bpp = select i1 %isout, ptr %outbp, ptr %inbp
  %neg = icmp slt i32 %i, 0
  %over = icmp sge i32 %i, %n
  %out = or i1 %neg, %over
  br i1 %out, label %none, label %some
none:
  ret i64 -1
some:
  %bytes = load ptr, ptr %bpp
  %p = getelementptr i64, ptr %bytes, i32 %i
  %b = load i64, ptr %p
  ret i64 %b
}
