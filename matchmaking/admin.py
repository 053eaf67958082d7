from __future__ import annotations

from django.contrib import admin

from .models import Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = ("name", "mode", "players", "rating", "status", "created", "game")
    list_filter = ("status", "mode", "players")
    raw_id_fields = ("user", "game")
