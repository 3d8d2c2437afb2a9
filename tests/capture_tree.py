"""A small editor window, as a nested tree, for the capture tests."""

TREE = {
    "id": "w", "role": "window", "name": "Editor", "bbox": [0, 0, 800, 600],
    "children": [
        {"id": "tb", "role": "toolbar", "name": "Main", "bbox": [0, 0, 800, 40], "children": [
            {"id": "save", "role": "button", "name": "Save", "bbox": [10, 5, 70, 35],
             "automation_id": "btnSave", "disabled": False},
            {"id": "open", "role": "button", "name": "Open", "bbox": [80, 5, 140, 35]},
        ]},
        {"id": "body", "role": "textbox", "name": "Body", "bbox": [0, 40, 800, 600]},
    ],
}  # fmt: skip
