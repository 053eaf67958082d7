from __future__ import annotations

from django.contrib import admin

from .models import Attempt, DailyPuzzle, PlayerRating, Puzzle


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("slug", "level", "technique", "rating", "solutions", "source", "public")
    list_filter = ("level", "technique", "source", "public")
    search_fields = ("slug", "lesson")
    readonly_fields = ("created",)


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("puzzle", "user", "guest_key", "mode", "started", "solved", "hints", "seconds")
    list_filter = ("mode", "solved", "gave_up", "rated")
    raw_id_fields = ("puzzle", "user")


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "guest_key", "rating", "rd", "games", "streak_best")
    raw_id_fields = ("user",)


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(admin.ModelAdmin):
    list_display = ("date", "puzzle")
    raw_id_fields = ("puzzle",)
