//===- EmitTarget.cpp - The output an emitter writes into -----------------===//

#include "tlp/Emit/EmitTarget.h"

#include "tlp/Emit/Emitter.h"

using namespace llvm;

namespace tlp {

EmitTarget::~EmitTarget() = default;

Expected<std::unique_ptr<EmitTarget>>
EmitTarget::open(const EmitterTraits &Traits, const EmitOptions &Opts,
                 bool HoldStdout) {
  std::unique_ptr<EmitTarget> T(new EmitTarget());
  if (Traits.Shape == OutputShape::Directory) {
    if (Opts.Output.empty() || Opts.Output == "-")
      return createStringError(std::errc::invalid_argument,
                               "%s writes a directory: give it with -o DIR",
                               Traits.Flag.str().c_str());
    Expected<std::unique_ptr<OutputDirectory>> D = OutputDirectory::create(
        Opts.Output, Traits.IndexFile, Traits.Signature);
    if (!D)
      return D.takeError();
    T->Dir = std::move(*D);
    return T;
  }
  if (Opts.Stream) {
    T->OS = Opts.Stream;
    return T;
  }
  T->Streams = Traits.StreamsStdout && !HoldStdout;
  Expected<std::unique_ptr<OutputFile>> F =
      openOutputFile(Opts.Output, /*StreamStdout=*/T->Streams);
  if (!F)
    return F.takeError();
  T->File = std::move(*F);
  T->OS = &T->File->os();
  return T;
}

Error EmitTarget::commit() {
  if (Dir)
    return Dir->commit();
  OS->flush();
  return File ? File->commit() : Error::success();
}

} // namespace tlp
