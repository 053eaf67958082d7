"""The static files storage: WhiteNoise's compressed manifest storage, with the boards' ES
module imports rewritten to the hashed names.

``collectstatic`` stores each file of static/ also under a name carrying a hash of its content
(``games/rules.3f1c0a9e2b7d.js``), with a gzip copy beside it, and lists the names in
``staticfiles.json``; ``{% static %}`` then writes the hashed name into pages. The boards are
ES modules that import each other by relative path (``import { Board } from "./state.js";``):
Django rewrites those imports to the hashed names too, so a module's name also changes when one
it imports changes. A page of one release therefore loads only that release's modules, and a
browser holding modules of the last one cannot mix them in (docs/deploy.md).
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
