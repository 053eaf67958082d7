// The profile's rating history: a Chart.js line (static/vendor/chartjs/, loaded before this
// script) with a point per game, dated axes and values, hover and keyboard focus. The points
// come from players/chart.py through json_script; the table beside the chart says the same
// for screen readers and pages without script.
(() => {
  const ink = getComputedStyle(document.documentElement);
  const colour = (name, fallback) => ink.getPropertyValue(name).trim() || fallback;
  const green = colour("--green", "#1f6b3a");
  const soft = colour("--ink-soft", "#5c5244");
  const rule = colour("--rule", "#e2d8bf");

  function draw(box) {
    const points = JSON.parse(document.getElementById(box.dataset.ratingChart).textContent);
    const canvas = box.querySelector("canvas");
    const said = box.querySelector("[data-chart-focus]");
    if (!points.length || !window.Chart) return;
    const values = points.map((p) => p.value);
    // Games all of one day are labelled by their time: the axis title names the day.
    const oneDay = points.every((p) => p.date === points[0].date);
    const xTitle = oneDay ? `Game finished, ${points[0].date}` : "Game finished";
    const chart = new window.Chart(canvas, {
      type: "line",
      data: {
        labels: points.map((p) => p.axis),
        datasets: [{
          label: canvas.getAttribute("aria-label"),
          data: values,
          borderColor: green,
          backgroundColor: green,
          borderWidth: 2,
          pointRadius: 4,
          pointHoverRadius: 7,
          pointHitRadius: 12,
          tension: 0,
        }],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: "nearest", axis: "x", intersect: false },
        plugins: {
          legend: { display: false },
          tooltip: {
            displayColors: false,
            callbacks: {
              title: (items) => points[items[0].dataIndex].when,
              label: (item) => `${points[item.dataIndex].value} (${points[item.dataIndex].change})`,
            },
          },
        },
        scales: {
          x: {
            offset: true,
            title: { display: true, text: xTitle, color: soft },
            ticks: { color: soft, autoSkip: true, maxRotation: 0, autoSkipPadding: 12 },
            grid: { color: rule },
          },
          y: {
            title: { display: true, text: "Rating", color: soft },
            ticks: { color: soft, precision: 0, callback: (value) => String(value) },
            grid: { color: rule },
            suggestedMin: Math.min(...values) - 20,
            suggestedMax: Math.max(...values) + 20,
          },
        },
      },
    });

    // Keyboard: the chart takes focus; arrows, Home and End walk its points, each said aloud.
    let at = points.length - 1;
    const show = (index) => {
      at = Math.max(0, Math.min(points.length - 1, index));
      const active = [{ datasetIndex: 0, index: at }];
      const point = chart.getDatasetMeta(0).data[at];
      chart.setActiveElements(active);
      chart.tooltip.setActiveElements(active, { x: point.x, y: point.y });
      chart.update();
      said.textContent = `Game ${at + 1} of ${points.length}, ${points[at].when}: ${points[at].value} (${points[at].change})`;
    };
    canvas.addEventListener("focus", () => show(at));
    canvas.addEventListener("blur", () => {
      chart.setActiveElements([]);
      chart.tooltip.setActiveElements([], { x: 0, y: 0 });
      chart.update();
    });
    canvas.addEventListener("keydown", (event) => {
      const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowDown: at - 1, ArrowUp: at + 1, Home: 0, End: points.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      show(moves[event.key]);
    });
    box.dataset.drawn = String(points.length);
  }

  document.querySelectorAll("[data-rating-chart]").forEach(draw);
})();
