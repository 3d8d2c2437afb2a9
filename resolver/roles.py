"""One role vocabulary for every platform, and how close two roles are.

Canonical roles are WAI-ARIA role names (``button``, ``link``, ``textbox`` ...) plus a few that
ARIA lacks but platforms have: ``text`` (static text), ``window``, ``label``, ``titlebar``,
``desktop`` and ``unknown``. Every platform's spelling maps into them through the tables below
(data, not branches); :func:`canonical_role` is the one lookup.

Compatibility is graded: a recorded ``link`` may resolve to a ``button`` that replaced it
(0.8), while a ``heading`` with the same name should not stand in for a ``button`` (0.0). The
full matrix is :data:`COMPAT`, indexed by :data:`ROLE_INDEX`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = [
    "ACTIONABLE_ROLES",
    "COMPAT",
    "CONTAINER_ROLES",
    "CONTENT_NAMED_CONTAINERS",
    "DIALOG_ROLES",
    "INPUT_ROLES",
    "LABEL_ROLES",
    "LANDMARK_ROLES",
    "PANEL_ROLES",
    "ROLES",
    "ROLE_INDEX",
    "SUMMARY_ROLES",
    "WIN32_DIALOG_CLASS",
    "WINDOW_SPELLINGS",
    "canonical_role",
    "role_code",
    "role_compat",
    "windows_window_role",
]

# --- the vocabulary -------------------------------------------------------------------------

ROLES: Final[tuple[str, ...]] = (
    "unknown", "generic", "none",
    # widgets
    "button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "option",
    "checkbox", "switch", "radio", "textbox", "searchbox", "combobox", "listbox", "slider",
    "spinbutton", "scrollbar", "progressbar", "meter", "treeitem", "gridcell", "separator",
    # text and media
    "text", "label", "heading", "paragraph", "img", "figure", "caption", "code", "tooltip",
    "status", "alert", "log", "marquee", "timer", "math", "note", "term", "definition",
    "blockquote", "emphasis", "strong", "insertion", "deletion", "mark", "time",
    # structure
    "document", "application", "window", "dialog", "alertdialog", "titlebar", "desktop",
    "group", "region", "list", "listitem", "table", "grid", "treegrid", "tree", "row",
    "rowgroup", "cell", "columnheader", "rowheader", "menu", "menubar", "tablist", "tabpanel",
    "toolbar", "radiogroup", "feed", "article", "section", "directory",
    # landmarks
    "banner", "navigation", "main", "complementary", "contentinfo", "form", "search",
)  # fmt: skip

ROLE_INDEX: Final[Mapping[str, int]] = {role: i for i, role in enumerate(ROLES)}

# --- spellings -> canonical ------------------------------------------------------------------
# Keys are compared after _key(): lower case, with '-', '_' and runs of spaces folded to one
# space. Platform-specific tables win over the shared one, so "text" can mean an edit field on
# AT-SPI and static text everywhere else.

_SHARED: Final[dict[str, str]] = {
    # Chromium's internal roles (CDP Accessibility.getFullAXTree) and Playwright's spellings
    "statictext": "text", "inlinetextbox": "text", "linebreak": "text", "listmarker": "text",
    "labeltext": "label", "rootwebarea": "document", "webarea": "document", "iframe": "document",
    "iframepresentational": "generic", "sectionheader": "banner", "sectionfooter": "contentinfo",
    "headerasnonlandmark": "generic", "footerasnonlandmark": "generic",
    "image": "img", "graphics document": "document", "graphics object": "group",
    "graphics symbol": "img", "canvas": "img", "svgroot": "img", "video": "group",
    "audio": "group", "embeddedobject": "group", "pluginobject": "group",
    "combobox select": "combobox", "comboboxselect": "combobox", "combobox menubutton": "combobox",
    "menulistpopup": "listbox", "menulistoption": "option", "popupbutton": "combobox",
    "togglebutton": "button", "disclosuretriangle": "button", "pdfactionablehighlight": "button",
    "descriptionlist": "list", "descriptionlistterm": "term", "descriptionlistdetail":
    "definition", "layouttable": "generic", "layouttablerow": "generic", "layouttablecell":
    "generic", "pre": "generic", "abbr": "generic", "ruby": "generic", "details": "group",
    "legend": "label", "figcaption": "caption", "contentdeletion": "deletion",
    "contentinsertion": "insertion",
    "presentation": "none", "presentational": "none", "ignored": "none", "unknown": "unknown",
    "textfield": "textbox", "textfieldwithcombobox": "combobox", "date": "textbox",
    "datetime": "textbox", "inputtime": "textbox", "colorwell": "button", "tabpanel": "tabpanel",
    "heading": "heading", "header": "banner", "footer": "contentinfo", "landmark": "region",
    "doc subtitle": "paragraph", "subscript": "generic", "superscript": "generic",
    "mathmlmath": "math", "svg": "img",
    # common HTML tags (capture shims: Chrome extension events carry a tag name)
    "a": "link", "input": "textbox", "textarea": "textbox", "select": "combobox",
    "img": "img", "h1": "heading", "h2": "heading", "h3": "heading", "h4": "heading",
    "h5": "heading", "h6": "heading", "nav": "navigation", "ul": "list", "ol": "list",
    "li": "listitem", "p": "paragraph", "tr": "row", "td": "cell", "th": "columnheader",
    "div": "generic", "span": "generic", "fieldset": "group", "label_tag": "label",
    "input[type=button]": "button", "input[type=submit]": "button", "input[type=reset]":
    "button", "input[type=image]": "button", "input[type=checkbox]": "checkbox",
    "input[type=radio]": "radio", "input[type=search]": "searchbox", "input[type=range]":
    "slider", "input[type=number]": "spinbutton", "input[type=text]": "textbox",
    "input[type=email]": "textbox", "input[type=password]": "textbox", "input[type=tel]":
    "textbox", "input[type=url]": "textbox",
    # Windows UI Automation ControlType names (``ButtonControl`` or ``Button``) and pywinauto
    # friendly class names
    "buttoncontrol": "button", "editcontrol": "textbox", "edit": "textbox",
    "textcontrol": "text", "static": "text", "hyperlinkcontrol": "link", "hyperlink": "link",
    "checkboxcontrol": "checkbox", "radiobuttoncontrol": "radio", "radiobutton": "radio",
    "comboboxcontrol": "combobox", "listcontrol": "list", "listbox_control": "listbox",
    "listitemcontrol": "listitem", "menucontrol": "menu", "menubarcontrol": "menubar",
    "menuitemcontrol": "menuitem", "tabcontrol": "tablist", "tabitemcontrol": "tab",
    "tabitem": "tab", "treecontrol": "tree", "treeitemcontrol": "treeitem",
    "windowcontrol": "window", "panecontrol": "group", "pane": "group",
    "groupcontrol": "group", "groupbox": "group", "documentcontrol": "document",
    "imagecontrol": "img", "toolbarcontrol": "toolbar", "statusbarcontrol": "status",
    "statusbar": "status", "progressbarcontrol": "progressbar", "slidercontrol": "slider",
    "trackbar": "slider", "spinnercontrol": "spinbutton",
    "updown": "spinbutton", "scrollbarcontrol": "scrollbar", "tablecontrol": "table",
    "datagridcontrol": "grid", "dataitemcontrol": "row", "dataitem": "row",
    "headercontrol": "rowgroup", "headeritemcontrol": "columnheader",
    "headeritem": "columnheader", "titlebarcontrol": "titlebar", "tooltipcontrol": "tooltip",
    "splitbuttoncontrol": "button", "splitbutton": "button", "separatorcontrol": "separator",
    "calendarcontrol": "grid", "thumbcontrol": "generic", "thumb": "generic",
    "customcontrol": "generic", "custom": "generic", "appbarcontrol": "toolbar",
    "semanticzoomcontrol": "generic", "dialog_control": "dialog",
    "treeview": "tree", "tabcontrol_friendly": "tablist", "toolbar": "toolbar",
    # macOS Accessibility (AXRole, and AXSubrole where it is more telling)
    "axbutton": "button", "axtextfield": "textbox", "axtextarea": "textbox",
    "axsecuretextfield": "textbox", "axsearchfield": "searchbox", "axstatictext": "text",
    "axlink": "link", "axcheckbox": "checkbox", "axswitch": "switch",
    "axradiobutton": "radio", "axpopupbutton": "combobox", "axcombobox": "combobox",
    "axmenubutton": "button", "axmenu": "menu", "axmenubar": "menubar",
    "axmenuitem": "menuitem", "axmenubaritem": "menuitem", "axwindow": "window",
    "axsheet": "dialog", "axdialog": "dialog", "axsystemdialog": "dialog",
    "axfloatingwindow": "window", "axstandardwindow": "window", "axgroup": "group",
    "axscrollarea": "group", "axsplitgroup": "group", "axlayoutarea": "group",
    "axlayoutitem": "group", "axlist": "list", "axtable": "table", "axoutline": "tree",
    "axbrowser": "tree", "axrow": "row", "axoutlinerow": "treeitem", "axcell": "cell",
    "axcolumn": "generic", "axheading": "heading", "aximage": "img", "axtabgroup": "tablist",
    "axtabbutton": "tab", "axslider": "slider", "axincrementor": "spinbutton",
    "axstepper": "spinbutton", "axprogressindicator": "progressbar",
    "axbusyindicator": "progressbar", "axlevelindicator": "meter",
    "axrelevanceindicator": "meter", "axvaluelndicator": "meter", "axtoolbar": "toolbar",
    "axsplitter": "separator", "axwebarea": "document", "axapplication": "application",
    "axdisclosuretriangle": "button", "axcolorwell": "button", "axdatefield": "textbox",
    "axdockitem": "button", "axscrollbar": "scrollbar", "axvalueindicator": "generic",
    "axruler": "generic", "axrulermarker": "generic", "axgrowarea": "generic",
    "axhelptag": "tooltip", "axmatte": "generic", "axdrawer": "group", "axgrid": "grid",
    "axunknown": "unknown", "axclosebutton": "button", "axminimizebutton": "button",
    "axzoombutton": "button", "axfullscreenbutton": "button", "axtoolbarbutton": "button",
    "axsortbutton": "button", "axcontentlist": "list", "axdefinitionlist": "list",
    "axtimeline": "slider", "axlandmarkbanner": "banner", "axlandmarknavigation": "navigation",
    "axlandmarkmain": "main", "axlandmarksearch": "search", "axlandmarkcomplementary":
    "complementary", "axlandmarkcontentinfo": "contentinfo", "axlandmarkregion": "region",
    "axlandmarkform": "form", "axapplicationdialog": "dialog", "axapplicationalertdialog":
    "alertdialog", "axapplicationalert": "alert", "axapplicationstatus": "status",
    "axdocumentarticle": "article", "axdocumentnote": "note", "axdocumentmath": "math",
    "axtabpanel": "tabpanel", "axtextattachment": "img", "axdescriptionlist": "list",
    # AT-SPI role names (OSWorld writes them as tags with '-' for spaces)
    "push button": "button", "toggle button": "button", "push button menu": "button",
    "entry": "textbox", "password text": "textbox", "editbar": "textbox",
    "terminal": "textbox", "check box": "checkbox", "radio button": "radio",
    "combo box": "combobox", "menu bar": "menubar", "menu item": "menuitem",
    "check menu item": "menuitemcheckbox", "radio menu item": "menuitemradio",
    "tearoff menu item": "menuitem", "page tab": "tab", "page tab list": "tablist",
    "frame": "window", "file chooser": "dialog", "color chooser": "dialog",
    "font chooser": "dialog", "alert": "alert", "panel": "group", "filler": "generic",
    "scroll pane": "group", "viewport": "group", "split pane": "group",
    "layered pane": "group", "glass pane": "group", "root pane": "group",
    "internal frame": "window", "desktop frame": "desktop", "desktop icon": "button",
    "list item": "listitem", "table cell": "cell", "table row": "row",
    "table column header": "columnheader", "table row header": "rowheader",
    "tree table": "treegrid", "tree item": "treeitem", "tool bar": "toolbar",
    "status bar": "status", "progress bar": "progressbar", "spin button": "spinbutton",
    "scroll bar": "scrollbar", "icon": "img", "tool tip": "tooltip",
    "document web": "document", "document frame": "document", "document text": "document",
    "document spreadsheet": "document", "document presentation": "document",
    "document email": "document", "html container": "generic", "section": "generic",
    "block quote": "blockquote", "description list": "list", "description term": "term",
    "description value": "definition", "notification": "status", "info bar": "status",
    "level bar": "meter", "ruler": "generic",
    "autocomplete": "combobox", "calendar": "grid", "chart": "img", "date editor": "textbox",
    "dial": "slider", "drawing area": "img", "option pane": "dialog", "page": "group",
    "redundant object": "none", "invalid": "unknown", "extended": "generic",
    "input method window": "window", "animation": "img", "arrow": "img", "embedded": "group",
    "editbar_atspi": "textbox", "caption": "caption",
    "content deletion": "deletion", "content insertion": "insertion", "mark": "mark",
    "suggestion": "generic", "push-button": "button",
    # Android widget classes (last dotted segment, lower case)
    "imagebutton": "button", "floatingactionbutton": "button", "materialbutton": "button",
    "appcompatbutton": "button", "appcompatimagebutton": "button", "chip": "button",
    "edittext": "textbox", "autocompletetextview": "combobox", "appcompatedittext":
    "textbox", "textinputedittext": "textbox", "multiautocompletetextview": "combobox",
    "textview": "text", "appcompattextview": "text", "materialtextview": "text",
    "checkedtextview": "checkbox", "appcompatcheckbox": "checkbox",
    "materialcheckbox": "checkbox", "appcompatradiobutton": "radio", "switchcompat":
    "switch", "switchmaterial": "switch", "materialswitch": "switch", "spinner": "combobox",
    "appcompatspinner": "combobox", "imageview": "img", "appcompatimageview": "img",
    "listview": "list", "recyclerview": "list", "gridview": "grid", "expandablelistview":
    "tree", "scrollview": "group", "horizontalscrollview": "group", "nestedscrollview":
    "group", "viewpager": "group", "viewpager2": "group", "linearlayout": "generic",
    "framelayout": "generic", "relativelayout": "generic", "constraintlayout": "generic",
    "coordinatorlayout": "generic", "viewgroup": "generic", "view": "generic",
    "drawerlayout": "generic", "cardview": "group", "seekbar": "slider",
    "appcompatseekbar": "slider", "ratingbar": "slider", "progressbar": "progressbar",
    "tabwidget": "tablist", "tablayout": "tablist", "tabview": "tab", "webview": "document",
    "numberpicker": "spinbutton", "datepicker": "group", "timepicker": "group",
    "compoundbutton": "checkbox", "radiogroup": "radiogroup", "actionmenuitemview":
    "menuitem", "bottomnavigationitemview": "tab", "navigationbarview": "tablist",
    "bottomnavigationview": "tablist", "appbarlayout": "banner", "collapsingtoolbarlayout":
    "banner", "videoview": "group", "surfaceview": "img", "textureview": "img",
    "tablerow": "row", "tablelayout": "table", "quickcontactbadge": "button",
    "composeview": "generic", "androidcomposeview": "generic", "materialcardview": "group",
    "extendedfloatingactionbutton": "button", "textinputlayout": "group",
    "navigationbaritemview": "tab", "navigationrailitemview": "tab", "actionbar$tab": "tab",
    "searchautocomplete": "searchbox", "searchview": "search", "appcompatautocompletetextview":
    "combobox", "appcompattogglebutton": "switch", "materialbuttontogglegroup": "group",
    "linearlayoutcompat": "generic", "contentframelayout": "generic", "fitwindowsframelayout":
    "generic", "fitwindowslinearlayout": "generic", "actionbaroverlaylayout": "generic",
    "actionbarcontainer": "banner", "actionbarcontextview": "toolbar", "actionmenuview":
    "menubar", "swiperefreshlayout": "generic", "motionlayout": "generic",
    "viewanimator": "generic", "viewflipper": "generic", "viewswitcher": "generic",
    "tablayout$tabview": "tab", "tablayout$tab": "tab",
    # Win32 window classes (WindowsAgentArena / OSWorld Windows XML use them as tags)
    "syslistview32": "list", "systreeview32": "tree", "systabcontrol32": "tablist",
    "msctlsprogress32": "progressbar", "msctlstrackbar32": "slider",
    "msctlsupdown32": "spinbutton", "msctlsstatusbar32": "status", "toolbarwindow32":
    "toolbar", "rebarwindow32": "toolbar", "sysheader32": "rowgroup", "syslink": "link",
    "richedit20w": "textbox", "richedit50w": "textbox", "richeditd2dpt": "textbox",
    "tag32770": "dialog", "#32770": "dialog", "ipaddress": "textbox",
    "datetimepicker": "textbox", "sysdatetimepick32": "textbox",
    "rebar": "toolbar",  # pywinauto's friendly name for ReBarWindow32
    # macOS AX roles and subroles not listed above
    "axtogglebutton": "button", "axpopover": "dialog", "axincrementpage": "button",
    "axdecrementpage": "button", "axincrementarrow": "button", "axdecrementarrow": "button",
    "axsectionlist": "list", "axcollectionlist": "list",
    "axhandle": "generic", "axpage": "group", "axsearchfieldcancelbutton": "button",
    "axratingindicator": "slider", "axdatetimearea": "textbox", "axsystemfloatingwindow":
    "window",
}  # fmt: skip

# Per-platform spellings that disagree with the shared table.
_PLATFORM: Final[Mapping[str, Mapping[str, str]]] = {
    # AT-SPI "text" is an editable text widget; its static text is "label" or "static".
    # Its "alert" is a message box (GTK's message dialogs; Chromium's and Firefox's
    # role=alertdialog): an ARIA alert region is exposed there as "notification".
    "atspi": {"text": "textbox", "label": "text", "paragraph": "paragraph", "frame": "window",
              "alert": "alertdialog",
              "window": "window", "form": "form", "image": "img", "heading": "heading",
              "grouping": "group", "accelerator label": "text", "directory pane": "group",
              "footnote": "note", "comment": "note", "image map": "img", "popup menu": "menu",
              "tree": "tree", "list box": "listbox", "list": "list", "rating": "slider",
              "unknown": "unknown"},
    # UIA "Text" (ControlTypeName without the suffix) is static text; "Window" a window.
    "uia": {"text": "text", "window": "window", "list": "list", "listitem": "listitem",
            "document": "document", "image": "img", "group": "group", "header": "rowgroup",
            # ControlType names as pywinauto's control_type= spells them
            "tab": "tablist", "spinner": "spinbutton", "datagrid": "grid", "appbar": "toolbar",
            "semanticzoom": "generic", "calendar": "grid", "titlebar": "titlebar",
            "tooltip": "tooltip", "headeritem": "columnheader", "dataitem": "row",
            "thumb": "generic", "pane": "group", "custom": "generic", "statusbar": "status",
            "menubar": "menubar", "menuitem": "menuitem", "splitbutton": "button",
            "hyperlink": "link", "edit": "textbox", "static": "text"},
    # AXRoleDescription (English) where a dump lost AXRole; OSWorld's macOS XML uses these
    # lower-cased, with '_' for spaces, as tags.
    "ax": {"text": "text", "group": "group", "outline row": "treeitem", "outline": "tree",
           "row": "row", "cell": "cell", "table": "table", "pop up button": "combobox",
           "text field": "textbox", "search text field": "searchbox", "secure text field":
           "textbox", "text entry area": "textbox", "button": "button", "link": "link",
           "image": "img", "heading": "heading", "scroll area": "group", "toolbar": "toolbar",
           "tab group": "tablist", "tab": "tab", "radio button": "radio", "check box":
           "checkbox", "checkbox": "checkbox", "menu button": "button", "menu item":
           "menuitem", "menu bar item": "menuitem", "menu bar": "menubar", "menu": "menu",
           "standard window": "window", "window": "window", "dialog": "dialog",
           "sheet": "dialog", "web area": "document", "html content": "document",
           "slider": "slider", "close button": "button", "minimize button": "button",
           "zoom button": "button", "full screen button": "button", "toggle button":
           "button", "switch": "switch", "combo box": "combobox", "list": "list",
           "collection": "list", "split group": "group", "splitter": "separator",
           "stepper": "spinbutton", "progress indicator": "progressbar",
           "disclosure triangle": "button", "scroll bar": "scrollbar", "value indicator":
           "generic", "application": "application", "unknown role": "unknown",
           "unknown": "unknown", "content list": "list", "description list": "list",
           "popover": "dialog", "color well": "button", "date field": "textbox"},
    "android": {"button": "button", "checkbox": "checkbox", "switch": "switch",
                "radiobutton": "radio", "togglebutton": "switch", "toolbar": "toolbar"},
    "html": {"header": "banner", "footer": "contentinfo", "section": "region",
             "aside": "complementary", "main": "main", "form": "form", "dialog": "dialog",
             "table": "table", "button": "button", "label": "label", "option": "option"},
}  # fmt: skip

_PREFIXES: Final[tuple[str, ...]] = ("role_", "role ")
_SPACES = re.compile(r"[\s_\-]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _key(raw: str) -> str:
    return _SPACES.sub(" ", raw.strip()).lower()


def canonical_role(raw: str | None, platform: str | None = None) -> str:
    """Map a role as any platform spells it to the canonical vocabulary.

    Parameters
    ----------
    raw:
        The platform's role string (``"AXButton"``, ``"ButtonControl"``, ``"push-button"``,
        ``"android.widget.EditText"``, ``"StaticText"``, ``"button"``).
    platform:
        ``"atspi"``, ``"uia"``, ``"android"``, ``"html"``, ``"ax"``, ``"cdp"`` or ``None``; only
        needed where spellings collide (AT-SPI's ``text`` is an edit field).

    Returns
    -------
    str
        A member of :data:`ROLES`; ``"unknown"`` when nothing matches.

    Examples
    --------
    >>> canonical_role("AXButton"), canonical_role("push-button"), canonical_role("EditControl")
    ('button', 'button', 'textbox')
    >>> canonical_role("text", platform="atspi"), canonical_role("StaticText")
    ('textbox', 'text')
    """
    if not raw or not isinstance(raw, str):
        return "unknown"
    key = _key(raw)
    if platform is not None:
        table = _PLATFORM.get(platform)
        if table is not None and key in table:
            return table[key]
    if "." in key and " " not in key:  # android.widget.Button -> button
        key = key.rsplit(".", 1)[-1]
    for candidate in (key, key.replace(" ", "")):
        if candidate in _SHARED:
            return _SHARED[candidate]
        if candidate in ROLE_INDEX:
            return candidate
    for prefix in _PREFIXES:
        if key.startswith(prefix):
            return canonical_role(key[len(prefix) :], platform)
    if key.endswith("control"):
        return canonical_role(key.removesuffix("control").strip(), "uia")
    # "AXButton"-style without a table entry: try the part after "ax".
    if key.startswith("ax") and key[2:] in ROLE_INDEX:
        return key[2:]
    # ARIA permits a space-separated fallback list; the first known token wins.
    if " " in key:
        for token in key.split():
            if token in ROLE_INDEX:
                return token
    return "unknown"


def role_code(role: str) -> int:
    """Index of a canonical role in :data:`ROLES` (``unknown`` for anything else)."""
    return ROLE_INDEX.get(role, 0)


# --- graded compatibility ------------------------------------------------------------------
# Symmetric pairs; everything not listed is 0 between two known, different roles. "unknown"
# and "generic" are weak matches for anything (platforms lose roles; a clickable div is
# "generic" in the DOM). These numbers are data: tune them here.

_PAIRS: Final[tuple[tuple[str, str, float], ...]] = (
    ("button", "link", 0.8), ("button", "menuitem", 0.75), ("link", "menuitem", 0.7),
    ("button", "tab", 0.6), ("link", "tab", 0.55), ("button", "switch", 0.45),
    ("button", "checkbox", 0.35), ("button", "combobox", 0.5), ("button", "option", 0.4),
    ("button", "treeitem", 0.35), ("button", "listitem", 0.35), ("button", "img", 0.35),
    ("link", "listitem", 0.35), ("link", "treeitem", 0.4), ("link", "option", 0.35),
    ("link", "img", 0.3), ("button", "gridcell", 0.3), ("link", "cell", 0.3),
    ("menuitem", "menuitemcheckbox", 0.75), ("menuitem", "menuitemradio", 0.75),
    ("menuitem", "option", 0.55), ("menuitem", "tab", 0.5), ("menuitem", "treeitem", 0.4),
    ("menuitemcheckbox", "checkbox", 0.7), ("menuitemradio", "radio", 0.7),
    ("checkbox", "switch", 0.85), ("radio", "option", 0.45), ("radio", "tab", 0.4),
    ("checkbox", "option", 0.35), ("checkbox", "treeitem", 0.3),
    ("tab", "option", 0.35), ("tab", "listitem", 0.35),
    ("textbox", "searchbox", 0.9), ("textbox", "combobox", 0.7), ("searchbox", "combobox", 0.7),
    ("textbox", "spinbutton", 0.6), ("textbox", "text", 0.25), ("combobox", "listbox", 0.6),
    ("slider", "spinbutton", 0.5), ("slider", "scrollbar", 0.4), ("progressbar", "meter", 0.7),
    ("option", "listitem", 0.6), ("option", "treeitem", 0.5), ("option", "gridcell", 0.4),
    ("option", "row", 0.4), ("listitem", "treeitem", 0.6), ("listitem", "row", 0.5),
    ("row", "treeitem", 0.5), ("cell", "gridcell", 0.9), ("cell", "columnheader", 0.4),
    ("cell", "rowheader", 0.5), ("columnheader", "rowheader", 0.6),
    ("gridcell", "columnheader", 0.4), ("text", "label", 0.85), ("text", "paragraph", 0.7),
    ("text", "heading", 0.4), ("text", "caption", 0.6), ("text", "cell", 0.35),
    ("text", "status", 0.5), ("text", "time", 0.6), ("text", "strong", 0.7),
    ("text", "emphasis", 0.7), ("text", "code", 0.6), ("text", "term", 0.6),
    ("text", "definition", 0.6), ("text", "listitem", 0.35), ("label", "caption", 0.6),
    ("paragraph", "blockquote", 0.6), ("heading", "caption", 0.4), ("heading", "label", 0.3),
    ("img", "figure", 0.6), ("status", "alert", 0.6), ("status", "log", 0.5),
    ("alert", "alertdialog", 0.6), ("dialog", "alertdialog", 0.9), ("dialog", "window", 0.7),
    ("window", "application", 0.6), ("document", "application", 0.5),
    ("document", "window", 0.4), ("document", "main", 0.3), ("group", "region", 0.6),
    ("group", "generic", 0.5), ("group", "radiogroup", 0.6), ("group", "toolbar", 0.5),
    ("group", "form", 0.5), ("group", "section", 0.6), ("region", "section", 0.8),
    ("region", "main", 0.4), ("region", "complementary", 0.5), ("region", "article", 0.5),
    ("region", "tabpanel", 0.5), ("group", "tabpanel", 0.5), ("group", "dialog", 0.3),
    ("list", "listbox", 0.7), ("list", "tree", 0.5), ("list", "menu", 0.4),
    ("list", "grid", 0.4), ("list", "table", 0.4), ("list", "feed", 0.6),
    ("list", "directory", 0.7), ("table", "grid", 0.85), ("table", "treegrid", 0.6),
    ("grid", "treegrid", 0.8), ("tree", "treegrid", 0.7), ("tree", "listbox", 0.5),
    ("menu", "menubar", 0.7), ("menu", "listbox", 0.5), ("menubar", "toolbar", 0.5),
    ("tablist", "toolbar", 0.4), ("tablist", "list", 0.4), ("row", "rowgroup", 0.3),
    ("banner", "navigation", 0.3), ("contentinfo", "navigation", 0.3),
    ("navigation", "list", 0.3), ("navigation", "menubar", 0.4), ("search", "form", 0.6),
    ("search", "searchbox", 0.3), ("main", "article", 0.4), ("article", "listitem", 0.4),
    ("article", "group", 0.5), ("section", "article", 0.5), ("titlebar", "banner", 0.4),
    ("separator", "generic", 0.3), ("figure", "group", 0.4), ("none", "generic", 0.9),
)  # fmt: skip

_WEAK_ROLES: Final[Mapping[str, float]] = {"unknown": 0.35, "generic": 0.2, "none": 0.15}


def _build_compat() -> npt.NDArray[np.float32]:
    n = len(ROLES)
    matrix = np.zeros((n, n), dtype=np.float32)
    for weak, value in _WEAK_ROLES.items():
        i = ROLE_INDEX[weak]
        matrix[i, :] = np.maximum(matrix[i, :], value)
        matrix[:, i] = np.maximum(matrix[:, i], value)
    for a, b, value in _PAIRS:
        i, j = ROLE_INDEX[a], ROLE_INDEX[b]
        matrix[i, j] = matrix[j, i] = value
    np.fill_diagonal(matrix, 1.0)
    matrix.setflags(write=False)
    return matrix


COMPAT: Final[npt.NDArray[np.float32]] = _build_compat()
"""``COMPAT[i, j]`` in [0, 1]: how well role ``ROLES[j]`` may stand in for ``ROLES[i]``."""


def role_compat(a: str, b: str) -> float:
    """Graded compatibility of two canonical roles, in ``[0, 1]``.

    >>> role_compat("link", "button"), role_compat("button", "heading")
    (0.800000011920929, 0.0)
    """
    return float(COMPAT[role_code(a), role_code(b)])


# --- role sets that decisions read -----------------------------------------------------------

CONTAINER_ROLES: Final[frozenset[str]] = frozenset(
    {
        "dialog", "alertdialog", "window", "group", "region", "form", "search", "navigation",
        "banner", "contentinfo", "main", "complementary", "toolbar", "menu", "menubar",
        "tablist", "tabpanel", "list", "listitem", "row", "table", "grid", "treegrid", "tree",
        "radiogroup", "article", "section", "figure", "document", "application", "listbox",
        "rowgroup", "feed", "directory", "treeitem",
    }
)  # fmt: skip
"""Roles whose name enters the container path of their descendants."""

LANDMARK_ROLES: Final[frozenset[str]] = frozenset(
    {"banner", "navigation", "main", "complementary", "contentinfo", "form", "search", "dialog"}
)
"""Roles that enter the container path as ``[role]`` even without a name."""

DIALOG_ROLES: Final[frozenset[str]] = frozenset({"dialog", "alertdialog"})
"""Roles drawn over the page, one replacing another: a point inside one's box is on it, and
its controls ("OK", "Save") act on what that dialog is about."""

PANEL_ROLES: Final[frozenset[str]] = DIALOG_ROLES | {"tabpanel"}
"""Containers a page shows one of at a time in one place: a dialog replaces another, a tab
panel the panel of another tab."""

SUMMARY_ROLES: Final[frozenset[str]] = frozenset({"DisclosureTriangle", "summary"})
"""Raw roles of an HTML ``<summary>`` (Chromium's accessibility tree, the DOM's tag): the
first row of a disclosure section, which names it (``CandidateTable.panel_above``)."""

CONTENT_NAMED_CONTAINERS: Final[frozenset[str]] = frozenset(
    {"row", "listitem", "treeitem", "article", "option"}
)
"""Unnamed containers of these roles enter container paths with their text content: a table
row's other cells, a list item's or an article's text are what tells one "Edit" or one
"Read more" from the next."""

LABEL_ROLES: Final[frozenset[str]] = frozenset(
    {"text", "label", "img", "generic", "none", "unknown", "paragraph", "strong", "emphasis"}
)
"""Roles of what sits inside a control and labels it (text in a link, an icon in a button):
when such a row narrowly wins over the control around it, the control is answered."""

ACTIONABLE_ROLES: Final[frozenset[str]] = frozenset(
    {
        "button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "option",
        "checkbox", "switch", "radio", "textbox", "searchbox", "combobox", "listbox", "slider",
        "spinbutton", "treeitem",
    }
)  # fmt: skip
"""Roles an agent clicks, types into or chooses: the element catalog lists these."""

INPUT_ROLES: Final[frozenset[str]] = frozenset(
    {"textbox", "searchbox", "combobox", "spinbutton", "slider", "listbox"}
)
"""Roles that hold a value a person enters: kept in snapshots even without a name."""


# --- Windows windows: dialog or not ----------------------------------------------------------

WIN32_DIALOG_CLASS: Final[str] = "#32770"
"""The Win32 class of dialog boxes (message boxes, property sheets, common dialogs)."""

_WINDOWS: Final[frozenset[str]] = frozenset(
    {"WindowControl", "Window", "window", "Dialog", "dialog", "DialogControl"}
)
"""Raw roles a Windows dump gives a window: UIA's control type, and pywinauto's friendly class
``Dialog``, which it gives every top-level window (its win32 wrapper for a window of no known
class, and its UIA wrapper for any top-level ``Window``)."""

_PANES: Final[frozenset[str]] = frozenset(
    {"PaneControl", "Pane", "GroupControl", "Group", "CustomControl", "Custom"}
)
"""UIA control types a dialog inside a window has (a page's ``role=dialog`` in a browser is a
``Pane`` that says it is a dialog)."""

WINDOW_SPELLINGS: Final[frozenset[str]] = _WINDOWS | _PANES
"""Raw roles :func:`windows_window_role` may read as a dialog."""


def windows_window_role(raw_role: str, class_name: str | None, says_dialog: bool) -> str:
    """The raw role of a Windows window (or pane) as a dialog or a window: ``"Dialog"`` when
    its class is the Win32 dialog class (:data:`WIN32_DIALOG_CLASS`) or the dump says it is one
    (``says_dialog``: UIA's ``IsDialog``, a modal window pattern, a localized control type
    "dialog"); ``"Window"`` for what pywinauto called ``Dialog`` when its class is another;
    a pane (``Pane``, ``Group``, ``Custom``) only by what the dump says; any other raw role
    (a window's ``WindowControl`` too), or a ``Dialog`` of unknown class, unchanged.

    A dialog's controls act on what the dialog is about, and a reference records the dialog
    around them (its ``panel``); a main window is no dialog, and its title changes with the
    document it shows ("Untitled - Notepad", "notes.txt - Notepad")."""
    if raw_role not in WINDOW_SPELLINGS:
        return raw_role
    if raw_role in _PANES:
        return "Dialog" if says_dialog else raw_role
    if says_dialog or class_name == WIN32_DIALOG_CLASS:
        return "Dialog"
    return "Window" if class_name and raw_role.lower() == "dialog" else raw_role
