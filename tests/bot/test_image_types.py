"""The playground serves each image with the Content-Type its bytes are, under either name."""

from __future__ import annotations

import io
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.playground.server import PLAYGROUND, create_app
from bot.table import TableService


def _bytes(fmt: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (10, 20, 30)).save(buffer, format=fmt)
    return buffer.getvalue()


async def test_images_are_served_with_the_type_their_bytes_are(table: TableService) -> None:
    app = create_app(table)
    client: TestClient[Any, Any]
    async with TestClient(TestServer(app)) as client:
        store = app[PLAYGROUND].images
        gif, png = store.add(_bytes("GIF")), store.add(_bytes("PNG"))
        for image_id, expected in ((gif, "image/gif"), (png, "image/png")):
            for ext in ("png", "gif"):
                response = await client.get(f"/images/{image_id}.{ext}")
                assert response.status == 200
                assert response.content_type == expected
        assert (await client.get(f"/images/{gif}.jpg")).status == 404
