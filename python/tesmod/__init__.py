"""tesmod: Elder Scrolls plugins (Oblivion, Skyrim LE/SE) and Oblivion saves, from Python.

    import tesmod
    plugin = tesmod.open("Dawnguard.esm")
    for npc in plugin.records("NPC_"):
        print(hex(npc.form_id), npc.editor_id)

Errors about files raise tesmod.Error, whose message names the file, the byte offset and the
record (also as the attributes file, offset, record and detail).
"""
from ._tesmod import (Error, Field, FormKey, Header, LoadOrder, PatchPlugin, Plugin, Record, RecordIterator, Save, ScriptError, TextError,
                      __version__, compact, load_order, open, open_save)

__all__ = ["Error", "Field", "FormKey", "Header", "LoadOrder", "PatchPlugin", "Plugin", "Record", "RecordIterator", "Save", "ScriptError", "TextError",
           "__version__", "compact", "load_order", "open", "open_save"]
