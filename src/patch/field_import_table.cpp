#include "field_import_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/error.hpp"

namespace tesmod::patch {
namespace {

// The tables. Facts from Wrye Bash's import patchers (the tag tables of bash/game/oblivion and
// bash/game/skyrim, skyrimse, and the record definitions they name), written in tesmod's notation:
//
//   TAG[/SE] TYPE,TYPE... ATTRIBUTE...   a row; lines that start with a blank continue its attributes
//
// Each attribute is one value a tagged plugin wins: the last tagged plugin whose value differs
// from its masters' values. Members are named as src/fields/layouts names them (a unit test holds
// the two together).
//
//   FULL                    the record's FULL (a repeated subrecord: all of them, in order)
//   MODL+MODB+MODT          these subrecords together (a model)
//   DATA.weight             one member of DATA
//   DATA.weight,value       one attribute per member
//   BOD2|BODT.biped-slots   the member in whichever of these the record has (the first listed it has)
//   FULL<EFID|EFXX          only those before the first EFID or EFXX
//   NNAM>ANAM|ALED          only those after the last ANAM or ALED
//   (MODT)                  carried with the others, not compared (Wrye Bash does not read it)
//   KWDA:unordered          the same FormIDs (or strings) in another order are the same value
//   ~ICON                   Graphics: whether the patch's record changes is decided by the path in
//                           any case (a model: its path alone), as Wrye Bash decides; the values
//                           taken are exact
//
// Where Wrye Bash's attribute has no layout member of its own, or the layout does not read the
// field simply, the whole subrecord is taken, and a comment says so.

constexpr std::string_view kOblivion = R"(
Names     ACTI,AMMO,APPA,ARMO,BOOK,BSGN,CLAS,CLOT,CONT,CREA,DOOR,EYES  FULL
Names     FACT,FLOR,HAIR,KEYM,LIGH,MGEF,MISC,NPC_,QUST,RACE,SLGM,WEAP  FULL
# The effects of these hold FULLs of their own (a script effect's name; OBME's).
Names     ALCH,ENCH,INGR,SGST,SPEL  FULL<EFID|EFXX

# enchantPoints: ANAM (one member). ARMO's strength is its armor rating (armor-x100).
Stats     ALCH,INGR       DATA.weight ENIT.value
Stats     AMMO            DATA.weight,value,damage,speed ANAM
Stats     APPA            DATA.weight,value,quality
Stats     ARMO            DATA.weight,value,health,armor-x100
Stats     BOOK,CLOT       DATA.weight,value ANAM
Stats     EYES,HAIR       DATA
Stats     KEYM,MISC,SLGM  DATA.weight,value
Stats     LIGH            DATA.weight,value,time
Stats     SGST            DATA.weight,value,uses
Stats     WEAP            DATA.weight,value,health,damage,speed,reach ANAM

Sound     ACTI,LIGH,WATR  SNAM
Sound     CONT            SNAM QNAM
Sound     DOOR            SNAM ANAM BNAM
# The creature's sounds: Wrye Bash sorts them by type and sound, here they compare as stored.
Sound     CREA            WNAM CSCR CSDT+CSDI+CSDC
Sound     MGEF            DATA.casting-sound,bolt-sound,hit-sound,area-sound
# SNDD is SNDX's older form, the same up to the flags.
Sound     SOUN            FNAM SNDX|SNDD.min-attenuation-div5,max-attenuation-div100,frequency-adjustment
          SNDX.static-attenuation-x100,stop-time,start-time
Sound     WTHR            SNAM

Graphics  ACTI,CONT,DOOR,FLOR,FURN,GRAS,STAT  ~MODL+MODB+MODT
Graphics  ALCH,AMMO,APPA,BOOK,HAIR,INGR,KEYM,MISC,SGST,SLGM,TREE,WEAP  ~ICON ~MODL+MODB+MODT
# biped_flags: Wrye Bash reads BMDT's four bytes as one set of flags (biped and apparel), so BMDT
# is taken whole.
Graphics  ARMO,CLOT  ~MODL+MODB+MODT ~MOD2+MO2B+MO2T ~ICON ~MOD3+MO3B+MO3T ~MOD4+MO4B+MO4T ~ICO2 BMDT
Graphics  BSGN,CLAS,EYES,LSCR,LTEX,QUST,REGN,SKIL  ~ICON
Graphics  CREA      NIFZ:unordered NIFT
# Every member of DATA but the padding.
Graphics  EFSH      ~ICON ~ICO2
          DATA.flags,membrane-source-blend,membrane-blend-op,membrane-z-test,fill-color,fill-alpha-fade-in
          DATA.fill-full-alpha-time,fill-alpha-fade-out,fill-persistent-alpha-ratio,fill-alpha-pulse-amplitude
          DATA.fill-alpha-pulse-frequency,fill-texture-speed-u,fill-texture-speed-v,edge-falloff,edge-color
          DATA.edge-alpha-fade-in,edge-full-alpha-time,edge-alpha-fade-out,edge-persistent-alpha-ratio
          DATA.edge-alpha-pulse-amplitude,edge-alpha-pulse-frequency,fill-full-alpha-ratio,edge-full-alpha-ratio
          DATA.membrane-dest-blend,particle-source-blend,particle-blend-op,particle-z-test,particle-dest-blend
          DATA.birth-ramp-up-time,full-birth-time,birth-ramp-down-time,full-birth-ratio,persistent-birth-ratio
          DATA.lifetime,lifetime-variance,initial-speed-along-normal,acceleration-along-normal
          DATA.initial-velocity1,initial-velocity2,initial-velocity3,acceleration1,acceleration2,acceleration3
          DATA.scale-key1,scale-key2,scale-key1-time,scale-key2-time,color-key1,color-key2,color-key3
          DATA.color-key1-alpha,color-key2-alpha,color-key3-alpha,color-key1-time,color-key2-time,color-key3-time
# The light's colour: the layout's colour member holds Wrye Bash's red, green and blue and one unused byte.
Graphics  LIGH      ~ICON ~MODL+MODB+MODT DATA.radius,color,flags,falloff-exponent,fov FNAM
Graphics  MGEF      ~ICON ~MODL+MODB+MODT DATA.light,effect-shader,enchant-effect

Text      BOOK,BSGN,CLAS,LSCR,MGEF,SKIL  DESC

Scripts   ACTI,ALCH,APPA,ARMO,BOOK,CLOT,CONT,CREA,DOOR,FLOR,FURN,INGR,KEYM,LIGH,MISC,NPC_,QUST,SGST,SLGM,WEAP
          SCRI

# Wrye Bash's spell stats include the EditorID.
SpellStats        SPEL  EDID SPIT.cost,level,type,flags
EnchantmentStats  ENCH  ENIT.type,charge,cost,flags
# associated_item is left out: the layout reads DATA's associated as a number (a FormID or an
# actor value, as the flags say), so it could not be carried as a form.
EffectStats       MGEF  DATA.flags,base-cost,school,resist-value,projectile-speed
                        DATA.constant-effect-enchantment-factor,constant-effect-barter-factor
Enchantments      AMMO,ARMO,BOOK,CLOT,WEAP  ENAM
)";

constexpr std::string_view kSkyrim = R"(
Names     ACTI,ALCH,AMMO,APPA,ARMO,AVIF,BOOK,CLAS,CLFM,CONT,DOOR,ENCH,EXPL,EYES,FACT,FLOR,FURN,HAZD,HDPT,INGR
          FULL
Names     KEYM,LCTN,LIGH,MESG,MGEF,MISC,MSTT,NPC_,PERK,PROJ,QUST,RACE,SCRL,SHOU,SLGM,SNCT,SPEL,TACT,TREE,WATR
          FULL
Names     WEAP,WOOP  FULL

# enchantPoints: EAMT and armorRating: DNAM (one member each).
Stats     ALCH       DATA.weight ENIT.value
Stats     AMMO       DATA.value,damage
Stats/SE  AMMO       DATA.weight
Stats     APPA,BOOK,INGR,KEYM,MISC,SLGM  DATA.weight,value
Stats     ARMO       DATA.weight,value DNAM
Stats     EYES,HDPT  DATA
Stats     LIGH       DATA.weight,value,time
Stats     WEAP       DATA.weight,value,damage DNAM.speed,reach,stagger EAMT CRDT.damage,damage-mult,effect

Sound     ACTI       SNAM VNAM
Sound     ADDN,FLOR,LIGH,MSTT,TACT,TREE,WATR  SNAM
Sound     ALCH       YNAM ZNAM ENIT.consume-sound
Sound     AMMO,APPA,ARMO,BOOK,INGR,KEYM,MISC,SCRL,SLGM  YNAM ZNAM
Sound     ARMA       SNDD
Sound     ASPC       SNAM RDAT BNAM
Sound     CONT       SNAM QNAM
Sound     DOOR       SNAM ANAM BNAM
Sound     EFSH       DATA.ambient-sound
Sound     EXPL       DATA.sound1,sound2,sound-level
Sound     HAZD       DATA.sound
Sound     IPCT       DATA.sound-level SNAM NAM1
Sound     MGEF       DATA.casting-sound-level SNDD
Sound     PROJ       DATA.sound,countdown-sound,disable-sound VNAM
Sound     SNCT       PNAM VNAM
Sound     SNDR       ANAM GNAM ONAM LNAM.looping,rumble
          BNAM.frequency-shift-percent,frequency-variance-percent,priority,db-variance,static-attenuation-x100
# Each output channel and the attenuation curve are one value each (one member each).
Sound     SOPM       NAM1.reverb-send-percent MNAM ONAM.channel0,channel1,channel2 ANAM.min-distance,max-distance,curve
Sound     SOUN       SDSC
Sound     WEAP       YNAM ZNAM SNAM XNAM NAM7 TNAM UNAM NAM9 NAM8 VNAM
Sound     WTHR       SNAM

# Wrye Bash does not read a model's texture hashes (MODT, MO2T ...; PROJ's NAM2): they are carried
# with the model, not compared.
Graphics  ACTI,CONT,DOOR,EXPL,FLOR,FURN,GRAS,STAT,TREE  ~MODL+(MODT)+MODS
Graphics  ALCH,AMMO,APPA,BOOK,INGR,KEYM,MISC,SLGM  ~ICON ~MODL+(MODT)+MODS
Graphics  ARMA       ~MOD2+(MO2T)+MO2S ~MOD3+(MO3T)+MO3S ~MOD4+(MO4T)+MO4S ~MOD5+(MO5T)+MO5S BOD2|BODT.biped-slots
# An armor's MODL subrecords are its armor addons.
Graphics  ARMO       ~MOD2+(MO2T)+MO2S ~ICON ~MOD4+(MO4T)+MO4S ~ICO2 MODL BOD2|BODT.biped-slots
Graphics  AVIF,CLAS,LSCR,PERK  ~ICON
Graphics  BOOK       INAM
# Every member of DATA but the unknown ones and the ambient sound (Sound's).
Graphics  EFSH       ~ICON ~ICO2 ~NAM7 ~NAM8 ~NAM9
          DATA.membrane-source-blend,membrane-blend-op,membrane-z-test,fill-color-key1,fill-alpha-fade-in
          DATA.fill-full-alpha-time,fill-alpha-fade-out,fill-persistent-alpha-ratio,fill-alpha-pulse-amplitude
          DATA.fill-alpha-pulse-frequency,fill-texture-speed-u,fill-texture-speed-v,edge-falloff,edge-color
          DATA.edge-alpha-fade-in,edge-full-alpha-time,edge-alpha-fade-out,edge-persistent-alpha-ratio
          DATA.edge-alpha-pulse-amplitude,edge-alpha-pulse-frequency,fill-full-alpha-ratio,edge-full-alpha-ratio
          DATA.membrane-dest-blend,particle-source-blend,particle-blend-op,particle-z-test,particle-dest-blend
          DATA.birth-ramp-up-time,full-birth-time,birth-ramp-down-time,full-birth-ratio,persistent-particle-count
          DATA.lifetime,lifetime-variance,initial-speed-along-normal,acceleration-along-normal
          DATA.initial-velocity1,initial-velocity2,initial-velocity3,acceleration1,acceleration2,acceleration3
          DATA.scale-key1,scale-key2,scale-key1-time,scale-key2-time,color-key1,color-key2,color-key3
          DATA.color-key1-alpha,color-key2-alpha,color-key3-alpha,color-key1-time,color-key2-time,color-key3-time
          DATA.initial-speed-along-normal-variance,initial-rotation,initial-rotation-variance,rotation-speed
          DATA.rotation-speed-variance,addon-models,holes-start-time,holes-end-time,holes-start-value
          DATA.holes-end-value,edge-width,edge-color2,explosion-wind-speed,texture-count-u,texture-count-v
          DATA.addon-models-fade-in-time,addon-models-fade-out-time,addon-models-scale-start
          DATA.addon-models-scale-end,addon-models-scale-in-time,addon-models-scale-out-time
          DATA.fill-color-key2,fill-color-key3,fill-color-key1-scale,fill-color-key2-scale,fill-color-key3-scale
          DATA.fill-color-key1-time,fill-color-key2-time,fill-color-key3-time,color-scale,birth-position-offset
          DATA.birth-position-offset-range,start-frame,start-frame-variation,end-frame,loop-start-frame
          DATA.loop-start-variation,frame-count,frame-count-variation,flags,fill-texture-scale-u
          DATA.fill-texture-scale-v
Graphics  EXPL       MNAM DATA.light,impact-data-set
Graphics  HDPT       ~MODL+(MODT)+MODS TNAM CNAM
# The decal's colour: the layout's colour member holds Wrye Bash's red, green and blue and one unused byte.
Graphics  IPCT       ~MODL+(MODT)+MODS DATA.effect-duration,orientation,angle-threshold,placement-radius,flags,result
          DODT.min-width,max-width,min-height,max-height,depth,shininess,parallax-scale,parallax-passes,flags,color
          DNAM ENAM
Graphics  LIGH       ~ICON ~MODL+(MODT)+MODS FNAM
          DATA.radius,color,flags,falloff-exponent,fov,near-clip,flicker-period,flicker-intensity-amplitude
          DATA.flicker-movement-amplitude
Graphics  MGEF       MDOB DATA.casting-light,hit-shader,enchant-shader,projectile,explosion,casting-art,hit-effect-art
          DATA.impact-data,dual-casting-art,dual-casting-scale,enchant-art,hit-visuals,enchant-visuals
          DATA.image-space-modifier
Graphics  PROJ       ~MODL+(MODT)+MODS ~NAM1+(NAM2)
          DATA.muzzle-flash-duration,fade-duration,light,muzzle-flash-light,explosion,decal-data
Graphics  SCRL,SPEL  MDOB
Graphics  TXST       ~TX00 ~TX01 ~TX02 ~TX03 ~TX04 ~TX05 ~TX06 ~TX07 DNAM
          DODT.min-width,max-width,min-height,max-height,depth,shininess,parallax-scale,parallax-passes,flags,color
Graphics  WEAP       ~MODL+(MODT)+MODS ~MOD3+(MO3T)+MO3S ~ICON WNAM
Graphics  WTHR       DALC

# Wrye Bash keeps keywords sorted: the same keywords in another order are no change.
Keywords  ACTI,ALCH,AMMO,ARMO,BOOK,FLOR,FURN,INGR,KEYM,LCTN,MGEF,MISC,NPC_,RACE,SCRL,SLGM,SPEL,TACT,WEAP
          KSIZ+KWDA:unordered

Text      ACTI,FLOR  RNAM
Text      ALCH,APPA,ARMO,CLAS,COLL,LSCR,MESG,PERK,SCRL,SHOU,SPEL,WEAP  DESC
Text      AMMO       DESC ONAM
Text      ASTP       MPRT FPRT MCHT FCHT
Text      AVIF       DESC ANAM
Text      BOOK       CNAM DESC
Text      MGEF       DNAM
Text      NPC_       SHRT
# The quest's description follows its aliases (an objective's NNAM is its display text).
Text      QUST       NNAM>ANAM|ALED
Text      WOOP       TNAM

ObjectBounds  ACTI,ADDN,ALCH,AMMO,APPA,ARMO,ARTO,ASPC,BOOK,CONT,DOOR,DUAL,ENCH,EXPL,FLOR,FURN,GRAS,HAZD,IDLM,INGR
              OBND
ObjectBounds  KEYM,LIGH,LVLI,LVLN,LVSP,MISC,MSTT,NPC_,PROJ,SCRL,SLGM,SOUN,SPEL,STAT,TACT,TREE,TXST,WEAP
              OBND

Destructible  ACTI,ALCH,AMMO,APPA,ARMO,BOOK,CONT,DOOR,FLOR,FURN,KEYM,LIGH,MISC,MSTT,NPC_,PROJ,SCRL,SLGM,TACT,WEAP
              DEST+DSTD+DMDL+(DMDT)+DMDS+DSTF

Enchantments  ARMO,EXPL,WEAP  EITM

EffectStats   MGEF  DATA.flags,base-cost,associated-item,magic-skill,resist-value,taper-weight,minimum-skill-level
                    DATA.spellmaking-area,spellmaking-casting-time,taper-curve,taper-duration
                    DATA.second-actor-value-weight,archetype,actor-value,cast-type,delivery,second-actor-value
                    DATA.skill-usage-mult,equip-ability,perk-to-apply,script-effect-ai-score
                    DATA.script-effect-ai-delay-time
# Wrye Bash's spell stats include the EditorID.
SpellStats    SCRL,SPEL  EDID SPIT.base-cost,flags,type,charge-time,cast-type,delivery,cast-duration,range
                         SPIT.half-cost-perk
EnchantmentStats  ENCH   ENIT.cost,flags,cast-type,amount,delivery,type,charge-time,base-enchantment
                         ENIT.worn-restrictions
)";

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = text.find(separator, from);
    out.push_back(text.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
    if (at == std::string_view::npos) return out;
    from = at + 1;
  }
}

class TableReader {
 public:
  TableReader(std::string_view name) : name_(name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("{}:{}", name_, line_), Error::kNoOffset, std::nullopt, what);
  }

  Signature signature(std::string_view text) const {
    Signature s;
    if (text.size() != 4 || !Signature::parse(text, s))
      fail(fmt::format("'{}' is not a four-character signature", text));
    return s;
  }

  std::vector<Signature> signatures(std::string_view text, char separator) const {
    std::vector<Signature> out;
    for (std::string_view s : split(text, separator)) out.push_back(signature(s));
    return out;
  }

  // One word of attributes: a single attribute, or several (`DATA.a,b,c`).
  void attributes(std::string_view word, std::vector<ImportAttribute>& out) const {
    ImportAttribute a;
    if (!word.empty() && word.front() == '~') {
      a.loose = true;
      word.remove_prefix(1);
    }
    std::vector<std::string> members;  // `SIG.a,b`: one attribute each
    for (std::string_view text : split(word, '+')) {
      ImportPart p;
      if (text.size() > 2 && text.front() == '(' && text.back() == ')') {
        p.compared = false;
        text = text.substr(1, text.size() - 2);
      }
      if (text.ends_with(":unordered")) {
        p.unordered = true;
        text.remove_suffix(std::string_view(":unordered").size());
      }
      const std::size_t region = text.find_first_of("<>");
      if (region != std::string_view::npos) {
        p.region = text[region] == '<' ? ImportRegion::Before : ImportRegion::After;
        p.bounds = signatures(text.substr(region + 1), '|');
        text = text.substr(0, region);
      }
      const std::size_t dot = text.find('.');
      p.fields = signatures(text.substr(0, dot), '|');
      if (dot != std::string_view::npos) {
        std::vector<std::string> names;
        for (std::string_view m : split(text.substr(dot + 1), ',')) {
          if (m.empty() || !std::all_of(m.begin(), m.end(), [](char c) {
                return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
              }))
            fail(fmt::format("'{}' in '{}' is not a member name (a-z, 0-9, -)", m, word));
          names.emplace_back(m);
        }
        if (names.size() > 1 && word.find('+') != std::string_view::npos)
          fail(fmt::format("'{}': several members are several attributes, and cannot be joined with +", word));
        p.member = names.front();
        if (names.size() > 1) members = std::move(names);
      }
      a.parts.push_back(std::move(p));
    }
    const bool any_member =
        std::any_of(a.parts.begin(), a.parts.end(), [](const ImportPart& p) { return !p.member.empty(); });
    const bool all_members =
        std::all_of(a.parts.begin(), a.parts.end(), [](const ImportPart& p) { return !p.member.empty(); });
    if (any_member != all_members) fail(fmt::format("'{}' joins whole subrecords and members", word));
    if (a.loose && a.members()) fail(fmt::format("'{}': ~ is for paths, which are whole subrecords", word));
    if (!a.parts.front().compared) fail(fmt::format("'{}': the first part must be compared", word));
    if (members.size() <= 1) {
      a.name = name_of(a);
      out.push_back(std::move(a));
      return;
    }
    for (const std::string& m : members) {
      ImportAttribute one = a;
      one.parts.front().member = m;
      one.name = name_of(one);
      out.push_back(std::move(one));
    }
  }

  static std::string name_of(const ImportAttribute& a) {
    std::string out;
    for (const ImportPart& p : a.parts) {
      if (!out.empty()) out += '+';
      for (std::size_t i = 0; i < p.fields.size(); ++i) out += (i ? "|" : "") + p.fields[i].str();
      if (!p.member.empty()) out += "." + p.member;
    }
    return out;
  }

  FieldImportTable read(std::string_view text) {
    FieldImportTable table;
    std::size_t from = 0;
    while (from <= text.size()) {
      const std::size_t end = std::min(text.find('\n', from), text.size());
      std::string_view line = text.substr(from, end - from);
      from = end + 1;
      ++line_;
      // A comment starts a line or follows a blank.
      for (std::size_t i = 0; i < line.size(); ++i)
        if (line[i] == '#' && (i == 0 || is_blank(line[i - 1]))) {
          line = line.substr(0, i);
          break;
        }
      std::vector<std::string_view> words;
      for (std::size_t i = 0; i < line.size();) {
        while (i < line.size() && is_blank(line[i])) ++i;
        const std::size_t start = i;
        while (i < line.size() && !is_blank(line[i])) ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
      }
      if (words.empty()) continue;
      const bool continues = is_blank(line.front());
      if (continues) {
        if (table.rows.empty()) fail("an indented line continues no row");
        for (std::string_view w : words) attributes(w, table.rows.back().attributes);
        continue;
      }
      if (words.size() < 2) fail("expected TAG TYPE,TYPE... ATTRIBUTE...");
      ImportRow row;
      row.line = line_;
      std::string_view tag = words[0];
      if (const std::size_t slash = tag.find('/'); slash != std::string_view::npos) {
        const std::string_view game = tag.substr(slash + 1);
        if (game == "SE")
          row.only = Game::SkyrimSE;
        else if (game == "LE")
          row.only = Game::SkyrimLE;
        else
          fail(fmt::format("'{}': a row is for one game as /SE or /LE", tag));
        tag = tag.substr(0, slash);
      }
      row.tag = std::string(tag);
      row.types = signatures(words[1], ',');
      for (std::size_t i = 2; i < words.size(); ++i) attributes(words[i], row.attributes);
      table.rows.push_back(std::move(row));
    }
    for (const ImportRow& r : table.rows)
      if (r.attributes.empty()) {
        line_ = r.line;
        fail(fmt::format("the row of {} names no attribute", r.tag));
      }
    return table;
  }

 private:
  std::string_view name_;
  std::size_t line_ = 0;
};

}  // namespace

FieldImportTable parse_field_import_table(std::string_view text, std::string_view name) {
  return TableReader(name).read(text);
}

std::string_view field_import_table_text(Game game) { return game == Game::Oblivion ? kOblivion : kSkyrim; }

const FieldImportTable& field_import_table(Game game) {
  auto make = [](Game g) {
    FieldImportTable t =
        parse_field_import_table(field_import_table_text(g), g == Game::Oblivion ? "tes4 imports" : "tes5 imports");
    std::erase_if(t.rows, [g](const ImportRow& r) { return r.only && *r.only != g; });
    return t;
  };
  static const FieldImportTable oblivion = make(Game::Oblivion);
  static const FieldImportTable skyrim_le = make(Game::SkyrimLE);
  static const FieldImportTable skyrim_se = make(Game::SkyrimSE);
  return game == Game::Oblivion ? oblivion : game == Game::SkyrimLE ? skyrim_le : skyrim_se;
}

}  // namespace tesmod::patch
