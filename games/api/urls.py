"""URLs of the REST API, mounted at ``/api/``."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api import streams, views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI's page and its start script are separate files (CSP: no inline script).
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("games/", views.GameListView.as_view(), name="api-games"),
    path("games/import/", views.ImportView.as_view(), name="api-games-import"),
    path("games/<public_id:public_id>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<public_id:public_id>/moves/", views.MoveView.as_view(), name="api-game-moves"),
    path("games/<public_id:public_id>/undo/", views.UndoView.as_view(), name="api-game-undo"),
    path("games/<public_id:public_id>/hint/", views.HintView.as_view(), name="api-game-hint"),
    path(
        "games/<public_id:public_id>/analysis/",
        views.AnalysisView.as_view(),
        name="api-game-analysis",
    ),
    path("games/<public_id:public_id>/resign/", views.ResignView.as_view(), name="api-game-resign"),
    path("games/<public_id:public_id>/abort/", views.AbortView.as_view(), name="api-game-abort"),
    path("games/<public_id:public_id>/draw/", views.DrawView.as_view(), name="api-game-draw"),
    path(
        "games/<public_id:public_id>/takeover/",
        views.TakeoverView.as_view(),
        name="api-game-takeover",
    ),
    path("watch/", views.WatchView.as_view(), name="api-watch"),
    path("stream/event/", streams.EventStreamView.as_view(), name="api-event-stream"),
    path(
        "bot/game/stream/<public_id:public_id>/",
        streams.GameStreamView.as_view(),
        name="api-game-stream",
    ),
    path("lobby/", views.LobbyView.as_view(), name="api-lobby"),
    path("lobby/seeks/", views.SeekCreateView.as_view(), name="api-seeks"),
    path("lobby/seeks/<public_id:seek_id>/", views.SeekDetailView.as_view(), name="api-seek"),
    path(
        "lobby/seeks/<public_id:seek_id>/accept/",
        views.SeekAcceptView.as_view(),
        name="api-seek-accept",
    ),
    path("lobby/quick/", views.QuickPairingView.as_view(), name="api-quick-pairing"),
    path("challenges/", views.ChallengeListView.as_view(), name="api-challenges"),
    path(
        "challenges/<public_id:challenge_id>/accept/",
        views.ChallengeAcceptView.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "challenges/<public_id:challenge_id>/decline/",
        views.ChallengeDeclineView.as_view(),
        name="api-challenge-decline",
    ),
    path(
        "challenges/<public_id:challenge_id>/cancel/",
        views.ChallengeCancelView.as_view(),
        name="api-challenge-cancel",
    ),
    path(
        "games/<public_id:public_id>/export/",
        views.GameExportView.as_view(),
        name="api-game-export",
    ),
    path(
        "games/<public_id:public_id>/review/",
        views.ReviewView.as_view(),
        name="api-game-review",
    ),
    path(
        "players/<str:username>/games/",
        views.PlayerGamesExportView.as_view(),
        name="api-player-games",
    ),
    path("rooms/", views.RoomCreateView.as_view(), name="api-rooms"),
    path("rooms/<slug:code>/", views.RoomDetailView.as_view(), name="api-room"),
    path("rooms/<slug:code>/join/", views.RoomJoinView.as_view(), name="api-room-join"),
    path("rooms/<slug:code>/rematch/", views.RoomRematchView.as_view(), name="api-room-rematch"),
]
