// The field types of a PACK record, shared by its decoder and encoder.
#pragma once

#include "tesmod/plugin/signature.hpp"

namespace tesmod::fields::pack {

inline constexpr Signature EDID{"EDID"}, VMAD{"VMAD"}, PKDT{"PKDT"}, PSDT{"PSDT"}, CTDA{"CTDA"}, CIS1{"CIS1"},
    CIS2{"CIS2"}, IDLF{"IDLF"}, IDLC{"IDLC"}, IDLT{"IDLT"}, IDLA{"IDLA"}, CNAM{"CNAM"}, QNAM{"QNAM"}, PKCU{"PKCU"},
    ANAM{"ANAM"}, PLDT{"PLDT"}, PTDA{"PTDA"}, PDTO{"PDTO"}, TPIC{"TPIC"}, UNAM{"UNAM"}, XNAM{"XNAM"}, CITC{"CITC"},
    PRCB{"PRCB"}, PNAM{"PNAM"}, FNAM{"FNAM"}, PKC2{"PKC2"}, PFO2{"PFO2"}, PFOR{"PFOR"}, BNAM{"BNAM"}, POBA{"POBA"},
    POEA{"POEA"}, POCA{"POCA"}, INAM{"INAM"}, TNAM{"TNAM"}, SCHR{"SCHR"}, SCDA{"SCDA"}, SCTX{"SCTX"}, SLSD{"SLSD"},
    SCVR{"SCVR"}, SCRO{"SCRO"}, SCRV{"SCRV"};

// The marker of each event, in PackageEventKind order.
inline constexpr Signature kEventMarkers[] = {POBA, POEA, POCA};

// Fields of the older script format that an event may still carry.
inline bool is_old_script_field(Signature s) {
  return s == SCHR || s == SCDA || s == SCTX || s == SLSD || s == SCVR || s == SCRO || s == SCRV || s == QNAM;
}

}  // namespace tesmod::fields::pack
