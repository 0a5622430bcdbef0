// Show tick times on the tablet's own clock; without JavaScript the app's time zone is used.
document.querySelectorAll("time[data-local]").forEach(function (el) {
  var at = new Date(el.getAttribute("datetime"));
  if (!isNaN(at)) {
    el.textContent = at.toLocaleTimeString(document.documentElement.lang,
      { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
});
